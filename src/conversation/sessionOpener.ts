import type * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../acp/acpConnection';
import type { AgentChannel } from '../acp/agentChannel';
import { AgentExitedError, errorDetails, raceExit } from '../acp/agentExit';
import { hostFor, type AgentHost, type AgentHostPool, type HostedSession } from '../acp/agentHost';
import type { AgentLaunch } from '../acp/agentChannel';
import type { ClientPorts } from '../acp/clientPorts';
import { findExecutable } from '../acp/commandLookup';
import { installCommandOf, type AgentDefinition } from '../agents/agentConfig';
import { serversForAgent, type McpServerOffer } from '../agents/mcpServers';
import { withheldServersNotice } from '../permissions/mcpConsent';
import { checkWithoutAsking } from '../permissions/projectProgramConsent';
import type { SessionMeta } from '../acp/acpConnection';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import type { ThreadModel } from '../thread/threadModel';
import type { ThreadEntry } from '../thread/entries';
import { DisposableStore } from '../util/disposable';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import { applyAgentDefaults } from './agentDefaults';
import { initializeAgent } from './agentInitialization';
import { nonProtocolOutputCheck } from './openingUpdates';
import type { SessionEnvironment } from './sessionEnvironment';
import type { SessionContext } from '../workspace/sessionContext';
import { acpFsPort, acpTerminalPort } from '../workspace/acpV1Ports';
import { scopeCwd, type WorkspaceScope } from '../workspace/workspaceScope';
import { quirksOf } from '../acp/agentQuirks';
import { historyCapabilities, noteContinuation, openSession, resolveContinue, type OpenedSession, type OpenTarget } from './sessionOpening';
import { isAuthRequired } from './signIn';
import { SETTINGS } from '../util/ids';

/** The conversation's own answers on the connection; the opener adds the files and commands of its workspace. */
export type ConversationPorts = Pick<ClientPorts, 'sessionUpdate' | 'requestPermission' | 'elicitation'>;

/** The conversation an opener works for. */
export interface OpeningConversation {
  key: string;
  thread: ThreadModel;
  terminalDisplays: TerminalDisplays;
  log: Logger;
  /** Every `session/update` of the open session, after the thread applied it. */
  onUpdate: SessionContext['onUpdate'];
  onPermissionRequest: SessionContext['onPermissionRequest'];
  promptUnderWay: SessionContext['promptUnderWay'];
  /** The agent answered with the session's id: updates it sent for it before that can be applied now. */
  sessionKnown(sessionId: string): void;
}

/** What every part of a conversation knows of it: whose it is, where it logs, its thread, and the agent in use now. */
export interface ConversationBasics {
  readonly agentLabel: string;
  readonly log: Logger;
  readonly thread: ThreadModel;
  /** The agent in use now: news of any other one is stale. */
  attached(): AgentAttachment | null;
}

/**
 * One conversation's hold on an agent: the host (process and connection, perhaps shared with
 * other conversations), its own place on it, and the services created for it.
 */
export class AgentAttachment {
  /** The session this conversation has on the connection, known before a load's replay arrives. */
  sessionId: string | null = null;
  private readonly hosted: HostedSession;

  constructor(
    readonly host: AgentHost,
    readonly launch: AgentLaunch,
    ports: ClientPorts,
    private readonly services: DisposableStore,
    private readonly pool: AgentHostPool | undefined,
  ) {
    this.hosted = { sessionId: () => this.sessionId, ports };
    host.attach(this.hosted);
  }

  get process(): AgentChannel {
    return this.host.process;
  }

  get connection(): AcpConnection {
    return this.host.connection;
  }

  /** Leaves the host; the last conversation on it closes the connection and stops the process. */
  async release(): Promise<void> {
    this.services.dispose();
    if (!this.host.detach(this.hosted)) return;
    this.pool?.remove(this.host);
    this.host.connection.close();
    await this.host.process.stop();
  }
}

/**
 * How a conversation gets to an open session: finds the agent's program, starts it or joins the
 * running one, initializes (and signs in where no user is needed), chooses the MCP servers, opens
 * the session the user asked for and applies the agent's defaults.
 */
export class SessionOpener {
  /** Sent with every session request: the agent's switch to ignore the project's settings, when the user chose it. */
  private sessionMeta: SessionMeta | undefined;

  constructor(
    private readonly agent: AgentDefinition,
    private readonly environment: SessionEnvironment,
    private readonly workspace: WorkspaceScope | null,
    private readonly conversation: OpeningConversation,
  ) {}

  /** The program and environment to start, or why the agent cannot be started. */
  async launch(): Promise<{ launch: AgentLaunch } | { problem: string; notInstalled?: { installCommand: string | null } }> {
    const cwd = scopeCwd(this.workspace);
    if (!cwd) return { problem: 'Open a folder first: agents work inside a workspace folder.' };
    // Nothing the folder's files define may run before the user's yes: asked before the process exists.
    const identity = { id: this.agent.id, label: this.agent.label, command: this.agent.command, args: this.agent.args };
    const verdict = await (this.environment.projectPrograms ?? checkWithoutAsking)(identity, cwd);
    if (!verdict.start) return { problem: verdict.problem };
    this.sessionMeta = verdict.ignoreSettings?.sessionMeta;
    if (verdict.ignoreSettings) this.conversation.thread.addNotice('info', `${this.agent.label} starts without this folder's settings: ${verdict.ignoreSettings.effect}`);
    const env = { ...this.agent.env, ...(await this.environment.apiKeys?.environmentFor(this.agent.id).catch(() => ({}))), ...verdict.ignoreSettings?.env };
    const command = findExecutable(this.agent.command, env.PATH ?? process.env.PATH, cwd);
    if (!command) {
      const hint = this.agent.installHint ? ` ${this.agent.installHint}` : ` Check the "command" of this agent in the ${SETTINGS.agents} setting.`;
      return { problem: `${this.agent.label} is not installed: "${this.agent.command}" was not found.${hint}`, notInstalled: { installCommand: installCommandOf(this.agent.installHint) } };
    }
    return { launch: { command, args: this.agent.args, env, cwd, priority: this.environment.agentPriority?.() ?? 'normal' } };
  }

  /** Starts the agent, or joins its running process, with this conversation's services. */
  attach(launch: AgentLaunch, ports: ConversationPorts): AgentAttachment {
    const { agentHosts, wirePorts: wire } = this.environment;
    const scope = wire ? null : this.workspace;
    let attachment: AgentAttachment | null = null;
    const checkOutput = nonProtocolOutputCheck(this.agent.label, this.conversation.thread, this.conversation.log, () => attachment?.sessionId == null);
    const host = hostFor(launch, {
      pool: this.agent.shareProcess === false ? undefined : agentHosts,
      offers: { fs: Boolean(wire ? wire.fs : scope?.files), terminals: Boolean(wire ? wire.terminals : scope?.commands) },
      onFrame: (frame) => {
        this.environment.frames.record(frame);
        checkOutput(frame);
      },
      log: this.conversation.log,
      label: this.agent.label,
      start: this.environment.startAgent,
    });
    const { key, thread, log, onUpdate, onPermissionRequest, terminalDisplays, promptUnderWay } = this.conversation;
    const context: SessionContext = { key, cwd: launch.cwd, thread, logger: log, onUpdate, onPermissionRequest, agentInfo: () => host.connection.initializeResponse?.agentInfo ?? null, terminalDisplays, promptUnderWay };
    const services = new DisposableStore();
    const files = scope?.files ? services.add(scope.files(context)) : null;
    const commands = scope?.commands ? services.add(scope.commands(context)) : null;
    const fs = files && acpFsPort(files, () => quirksOf(context.agentInfo()).missingFileReadsAsEmpty);
    const served = wire ?? { fs, terminals: commands && acpTerminalPort(commands) };
    attachment = new AgentAttachment(host, launch, { ...ports, ...served }, services, agentHosts);
    return attachment;
  }

  /** `initialize` (once per process), then the agent-handled sign-in the user chose, if any; `initialized` hears the answer before any sign-in. */
  async initialize(attachment: AgentAttachment, agentAuth: string | null, initialized?: (response: acp.InitializeResponse) => void): Promise<acp.InitializeResponse> {
    const { connection, process: agentProcess } = attachment;
    const prepared = attachment.host.prepare(() => initializeAgent(connection, {
      agent: this.agent, env: attachment.launch.env, signInOffered: this.environment.signIn !== undefined, skipKeyAuth: agentAuth !== null, log: this.conversation.log, initialized,
    }));
    const init = await raceExit(prepared.response, agentProcess);
    if (agentAuth) await raceExit(connection.authenticate(agentAuth), agentProcess);
    return init;
  }

  /** Opens what the user asked for; the session's modes and options become thread facts. */
  async open(attachment: AgentAttachment, init: acp.InitializeResponse, requested: OpenTarget): Promise<OpenedSession> {
    const { thread } = this.conversation;
    const offer = await this.mcpOffer();
    if (offer.withheld.length > 0) thread.addNotice('warning', withheldServersNotice(offer.withheld));
    const mcp = serversForAgent(offer.choices, init.agentCapabilities?.mcpCapabilities);
    for (const skipped of mcp.skipped) thread.addNotice('warning', `MCP server not passed to the agent: ${skipped}`);
    const target = resolveContinue(requested, historyCapabilities(init));
    const kept = requested.kind === 'continue' ? thread.snapshot() : null;
    if (requested.kind === 'continue') noteContinuation(thread, this.agent.label, target);
    const session = await this.openKeepingTranscript(attachment, target, kept, mcp.servers);
    if (session.configOptions) thread.setFact('configOptions', session.configOptions);
    if (session.modes) thread.setFact('currentModeId', session.modes.currentModeId);
    if (target.kind === 'new') await applyAgentDefaults(attachment.connection, session, this.agent, thread);
    return session;
  }

  private async mcpOffer(): Promise<McpServerOffer> {
    const offered = await this.environment.mcpServers?.();
    if (!offered) return { choices: [], withheld: [] };
    return 'choices' in offered ? offered : { choices: [...offered], withheld: [] };
  }

  /** `kept`: the transcript of the earlier session being continued, which a failed reopen must not lose. */
  private async openKeepingTranscript(attachment: AgentAttachment, target: Exclude<OpenTarget, { kind: 'continue' }>, kept: ThreadEntry[] | null, servers: acp.McpServer[]): Promise<OpenedSession> {
    const { connection, process: agentProcess, launch } = attachment;
    // Updates of a loaded session's replay must land in the thread, so the id is known first.
    if (target.kind === 'load' || target.kind === 'resume') attachment.sessionId = target.sessionId;
    const session = await raceExit(openSession(connection, target, launch.cwd, servers, this.sessionMeta), agentProcess).catch((error: unknown) => {
      if (!kept || target.kind === 'new' || error instanceof AgentExitedError || isAuthRequired(error)) throw error;
      const { thread } = this.conversation;
      thread.restore(kept);
      thread.addNotice('warning', `${this.agent.label} could not continue the earlier session (${errorMessage(error)}${errorDetails(error)}), so this is a new session: the agent has not seen the messages above.`);
      attachment.sessionId = null;
      return raceExit(openSession(connection, { kind: 'new' }, launch.cwd, servers, this.sessionMeta), agentProcess);
    });
    attachment.sessionId = session.sessionId;
    this.conversation.sessionKnown(session.sessionId);
    return session;
  }
}
