import { Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentChannel } from './agentChannel';
import { agentOutputStream } from './agentOutput';
import { LineFrames, lineTee, nextConnectionNumber } from './frames';
import { type FrameListener } from '../wire/frame';
import { clientCapabilities, clientInfo, type OfferedServices } from './clientCapabilities';
import { offered, type ClientPorts, type ElicitationPort, type FsPort, type TerminalPort } from './clientPorts';
import { LegacyModelsReader, type LegacyModels } from './legacyModels';
import { UpdateFastPath } from './updateFastPath';

/** The session capabilities in a raw `initialize` answer, or null for any other frame. */
function unstableSessionCapabilities(line: string): Record<string, unknown> | null {
  if (!line.includes('"agentCapabilities"')) return null;
  try {
    const message = JSON.parse(line) as { result?: { agentCapabilities?: { sessionCapabilities?: unknown } } };
    const capabilities = message.result?.agentCapabilities?.sessionCapabilities;
    return capabilities && typeof capabilities === 'object' ? (capabilities as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

/**
 * Why a connection ended that Tandem did not close. The SDK ends a connection for good when a
 * line is over its size limit or a frame makes it fail (one nested too deeply to answer), while
 * the agent process lives on: every later request would fail the same way.
 */
export type ConnectionFailure =
  | { kind: 'tooLarge'; maxBytes: number }
  | { kind: 'unprocessable'; detail: string }
  /** The agent closed its output, or a write to it failed: usually because it is exiting. */
  | { kind: 'ended'; detail: string | null };

function failureOf(reason: unknown, outputEnded: boolean): ConnectionFailure {
  if (reason instanceof acp.MessageTooLargeError) return { kind: 'tooLarge', maxBytes: reason.maxMessageBytes };
  // The SDK answers what it cannot read by echoing it back; serializing a deep frame overflows the stack.
  if (reason instanceof RangeError) return { kind: 'unprocessable', detail: /call stack/i.test(reason.message) ? 'it was nested too deeply' : reason.message };
  if (outputEnded) return { kind: 'ended', detail: null };
  return { kind: 'ended', detail: reason instanceof Error ? reason.message : null };
}

/** True when the agent's own frame ended the connection, as opposed to the agent going away. */
export function sentByAgent(failure: ConnectionFailure): boolean {
  return failure.kind !== 'ended';
}

/** One sentence for the user about a connection that failed; the process is stopped with it. */
export function describeConnectionFailure(agentName: string, failure: ConnectionFailure): string {
  switch (failure.kind) {
    case 'tooLarge':
      return `${agentName} sent a message larger than ${Math.round(failure.maxBytes / (1024 * 1024))} MB; Tandem closed the connection.`;
    case 'unprocessable':
      return `${agentName} sent a message Tandem could not process (${failure.detail}); Tandem closed the connection.`;
    case 'ended':
      return `${agentName} stopped answering: its connection ended${failure.detail ? ` (${failure.detail})` : ''}; Tandem stopped it.`;
  }
}

/**
 * The ACP client over one agent process: raw frames are teed before the SDK sees them, the
 * SDK frames and validates JSON-RPC (the common `session/update`s are taken off before it, see
 * UpdateFastPath), and typed calls go out through `agent`.
 */
/** A session request's `_meta`: what an agent reads beyond the protocol's fields. */
export type SessionMeta = Record<string, unknown>;

const withMeta = (meta: SessionMeta | undefined): { _meta?: SessionMeta } => (meta ? { _meta: meta } : {});

export class AcpConnection {
  private readonly connection: acp.ClientConnection;
  initializeResponse: acp.InitializeResponse | null = null;
  /**
   * `agentCapabilities.sessionCapabilities` exactly as the agent sent it: the stable SDK strips
   * unstable members (such as `fork`) while validating, so they are read from the raw frame.
   */
  rawSessionCapabilities: Record<string, unknown> | null = null;
  private readonly legacyModelsReader = new LegacyModelsReader();
  /** Set the moment the connection ends without Tandem closing it; it cannot be used again. */
  failure: ConnectionFailure | null = null;
  /** Settles only if the connection fails (see `failure`). */
  readonly failed: Promise<ConnectionFailure>;
  private closing = false;
  /** Only the answer to `initialize` carries the capabilities: no other line is searched for them. */
  private initializing = false;

  constructor(agentProcess: Pick<AgentChannel, 'stdin' | 'stdout'>, onFrame: FrameListener, private readonly ports: ClientPorts) {
    let outputEnded = false;
    agentProcess.stdout.once('end', () => {
      outputEnded = true;
    });
    const connection = nextConnectionNumber();
    const updates = new UpdateFastPath((notification) => ports.sessionUpdate(notification));
    const fromAgentFrames = new LineFrames('in', (frame) => {
      if (this.initializing && this.rawSessionCapabilities === null) this.rawSessionCapabilities = unstableSessionCapabilities(frame.text);
      this.legacyModelsReader.received(frame.text);
      onFrame(frame);
    }, connection);
    // Each read is teed whole before the fast path delivers any update in it.
    const fromAgent = agentOutputStream(agentProcess.stdout, {
      start: (pass) => updates.start(pass),
      read: (chunk) => updates.read(chunk, fromAgentFrames.take(chunk)),
      end: () => {
        fromAgentFrames.end();
        return updates.end();
      },
    });
    const toAgentTee = lineTee('out', (frame) => {
      this.legacyModelsReader.sent(frame.text);
      onFrame(frame);
    }, connection);
    void toAgentTee.readable.pipeTo(Writable.toWeb(agentProcess.stdin) as WritableStream<Uint8Array>).catch(() => undefined);
    const app = updates.registerFirst(acp.client({ name: clientInfo.name }))
      .onRequest(acp.methods.client.session.requestPermission, (ctx) => ports.requestPermission(ctx.params, ctx.signal))
      .onRequest(acp.methods.client.fs.readTextFile, (ctx) => offered<FsPort>(ports.fs, ctx.method).readTextFile(ctx.params, ctx.signal))
      .onRequest(acp.methods.client.fs.writeTextFile, (ctx) => offered<FsPort>(ports.fs, ctx.method).writeTextFile(ctx.params, ctx.signal))
      .onRequest(acp.methods.client.terminal.create, (ctx) => offered<TerminalPort>(ports.terminals, ctx.method).create(ctx.params, ctx.signal))
      .onRequest(acp.methods.client.terminal.output, (ctx) => offered<TerminalPort>(ports.terminals, ctx.method).output(ctx.params))
      .onRequest(acp.methods.client.terminal.waitForExit, (ctx) => offered<TerminalPort>(ports.terminals, ctx.method).waitForExit(ctx.params, ctx.signal))
      .onRequest(acp.methods.client.terminal.kill, (ctx) => offered<TerminalPort>(ports.terminals, ctx.method).kill(ctx.params))
      .onRequest(acp.methods.client.terminal.release, (ctx) => offered<TerminalPort>(ports.terminals, ctx.method).release(ctx.params))
      .onRequest(acp.methods.client.elicitation.create, (ctx) => offered<ElicitationPort>(ports.elicitation ?? null, ctx.method).create(ctx.params, ctx.signal))
      .onNotification(acp.methods.client.elicitation.complete, (ctx) => ports.elicitation?.complete(ctx.params));
    this.connection = updates.registerLast(app).connect(acp.ndJsonStream(toAgentTee.writable, fromAgent));
    this.failed = new Promise((resolve) => {
      // Heard before the SDK rejects the open requests with the same reason.
      this.connection.signal.addEventListener('abort', () => {
        updates.close();
        if (this.closing) return;
        this.failure = failureOf(this.connection.signal.reason, outputEnded);
        resolve(this.failure);
      }, { once: true });
    });
  }

  get closed(): Promise<void> {
    return this.connection.closed;
  }

  /** `offered`: what the session offers beyond the ports (display terminals, terminal sign-in). */
  async initialize(offered: Pick<OfferedServices, 'terminalOutput' | 'terminalAuth'> = {}): Promise<acp.InitializeResponse> {
    this.initializing = true;
    const response = await this.connection.agent.request<acp.InitializeResponse, acp.InitializeRequest>(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: clientCapabilities({ ...offered, booleanConfigOptions: true, sessionNotices: true, subagentTranscript: true, elicitation: Boolean(this.ports.elicitation), fs: this.ports.fs !== null, terminals: this.ports.terminals !== null }),
      clientInfo,
    }).finally(() => {
      this.initializing = false;
    });
    this.initializeResponse = response;
    return response;
  }

  /** Gemini CLI's legacy `models` of a session this connection opened, read from the raw answer (the SDK drops the field). */
  legacyModels(sessionId: string): LegacyModels | null {
    return this.legacyModelsReader.models(sessionId);
  }

  authenticate(methodId: string): Promise<acp.AuthenticateResponse> {
    return this.connection.agent.request(acp.methods.agent.authenticate, { methodId });
  }

  /** `meta`: the session's `_meta`, e.g. options an adapter reads from it. */
  newSession(cwd: string, mcpServers: acp.McpServer[] = [], meta?: SessionMeta): Promise<acp.NewSessionResponse> {
    return this.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers, ...withMeta(meta) });
  }

  /** The agent replays the session's history as `session/update`s before it answers. */
  loadSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = [], meta?: SessionMeta): Promise<acp.LoadSessionResponse> {
    return this.connection.agent.request<acp.LoadSessionResponse, acp.LoadSessionRequest>(acp.methods.agent.session.load, { sessionId, cwd, mcpServers, ...withMeta(meta) });
  }

  /** Reconnects to a session without replay: the client shows the transcript it kept. */
  resumeSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = [], meta?: SessionMeta): Promise<acp.ResumeSessionResponse> {
    return this.connection.agent.request(acp.methods.agent.session.resume, { sessionId, cwd, mcpServers, ...withMeta(meta) });
  }

  listSessions(cwd: string, cursor: string | null): Promise<acp.ListSessionsResponse> {
    return this.connection.agent.request(acp.methods.agent.session.list, { cwd, cursor });
  }

  /** Unstable `session/fork`: a new session that starts from a copy of this one's history. */
  forkSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = [], meta?: SessionMeta): Promise<acp.NewSessionResponse> {
    return this.connection.agent.request<acp.NewSessionResponse>('session/fork', { sessionId, cwd, mcpServers, ...withMeta(meta) });
  }

  logout(): Promise<unknown> {
    return this.connection.agent.request(acp.methods.agent.logout, {});
  }

  closeSession(sessionId: string): Promise<unknown> {
    return this.connection.agent.request(acp.methods.agent.session.close, { sessionId });
  }

  deleteSession(sessionId: string): Promise<unknown> {
    return this.connection.agent.request(acp.methods.agent.session.delete, { sessionId });
  }

  prompt(sessionId: string, prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt });
  }

  /**
   * The de-facto `_session/steering` extension (Claude and Codex adapters): the message joins the
   * running turn. `promptRequired` asks an idle agent to hand the message back rather than start
   * a turn of its own, so the client's queue stays the one owner of what runs next.
   */
  steer(sessionId: string, prompt: acp.ContentBlock[]): Promise<unknown> {
    return this.connection.agent.request<unknown>('_session/steering', { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } });
  }

  cancel(sessionId: string): Promise<void> {
    return this.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  setMode(sessionId: string, modeId: string): Promise<acp.SetSessionModeResponse> {
    return this.connection.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });
  }

  setConfigOption(sessionId: string, configId: string, value: string): Promise<acp.SetSessionConfigOptionResponse> {
    return this.connection.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value });
  }

  setBooleanConfigOption(sessionId: string, configId: string, value: boolean): Promise<acp.SetSessionConfigOptionResponse> {
    return this.connection.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, type: 'boolean', value });
  }

  /** Removed from the spec, still what Gemini CLI answers: sent by name, outside the SDK's typed methods. */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.connection.agent.request<unknown, { sessionId: string; modelId: string }>('session/set_model', { sessionId, modelId });
  }

  close(): void {
    this.closing = true;
    this.connection.close();
  }
}
