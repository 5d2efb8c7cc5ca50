/**
 * The in-repo scripted ACP agent for tests, on the SDK's agent side, serving one connection over
 * a pair of byte streams: a process's stdio (scripted-agent.ts) or two in-memory streams
 * (inMemoryAgent.ts). Its behaviour is chosen by the first word of each prompt, so every
 * scenario is deterministic:
 *
 *   echo <text>          streams "You said: <text>" (default for unknown words)
 *   slow                 streams 400 chunks 25 ms apart; honours session/cancel
 *   tool                 a read tool call with a location, then completed with text content
 *   permission           an edit tool call that asks permission; replies with the chosen option
 *   two-permissions      two edit tool calls asking at the same time, long text before and between them; replies with both options
 *   ghost-permission     asks permission for a tool call it never announced
 *   hidden-text          asks for a write to a file named with a bidi override and a command padded with line breaks
 *   plan                 a plan, updated once
 *   commands <names>     lists the named slash commands (available_commands_update), then says so
 *   malformed            writes a line that is not JSON, then answers normally
 *   crash                logs to stderr and exits with code 3 mid-turn
 *   spawn-children       starts two `sleep` grandchildren and replies with their pids
 *   flood <n>            n agent_message_chunks as fast as possible
 *   disk-edit <f> <text> writes <text> to the file itself, inside an edit tool call ending in its diff
 *   stubborn <f> <text>  ignores Stop: after the cancel and past the client's grace, one more disk-edit
 *   terminal <json>      drives the client's terminal/* (see scenarios/terminals.ts)
 *
 * Env: SCRIPTED_AGENT_EXIT_ON_START=<code> exits before reading anything (startup failure).
 * SCRIPTED_AGENT_FORK=1 offers `session/fork` (as Claude Code does): a fork is a new session in
 * the same folder, without the earlier history, which the client shows from its own copy.
 * SCRIPTED_AGENT_GEMINI_LOAD=1 loads sessions as Gemini CLI does: no `session/resume`, and the
 * replay of `session/load` comes after its answer.
 * Every piece of state (sessions, cancel flags, sign-in, config) belongs to one served agent.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { CancelFlags, PERMISSION_OPTIONS, promptText, sleep, streamText, update } from '../../src/demo-agent/agentKit';
import type { Scenario, ScriptedAgentEnv, ScriptedSession } from './scenarios/scenario';
import { TerminalSignIn, type AgentInvocation } from './scenarios/terminalAuth';
import { terminalScenarios } from './scenarios/terminals';
import { fsScenarios } from './scenarios/fs';
import { elicitationScenarios } from './scenarios/elicitation';
import { consentScenarios } from './scenarios/consent';
import { ApiKeySignIn } from './scenarios/apiKeyAuth';
import { ScriptedConversation } from './scenarios/conversation';
import { deleteStoredSession, readSessions, recordingClient, saveSession, turnRecord } from './scenarios/sessionStore';
import { AgentExtras } from './scenarios/agentExtras';
import { EDITOR_NOTE_PREFIX } from '../../src/review/editorNote';

/** What being a process means to the agent, which a process does for real and memory imitates. */
export interface ScriptedAgentHost {
  /** One line of the agent's free-form log (stderr). */
  log(line: string): void;
  /** Ends the agent with `code`, as a crash does; nothing the agent does after it reaches the client. */
  exit(code: number): void;
  /** Starts a long-running child of the agent; returns its pid. */
  spawnChild(command: string, args: string[]): number | undefined;
}

export interface ScriptedAgentOptions {
  env: ScriptedAgentEnv;
  /** The agent's working folder: where `session/list` looks when the client names none. */
  cwd: string;
  invocation: AgentInvocation;
  host: ScriptedAgentHost;
}

export interface ScriptedAgentStreams {
  /** Client to agent. */
  input: Readable;
  /** Agent to client. */
  output: Writable;
}

function coreScenarios(output: Writable, host: ScriptedAgentHost): Record<string, Scenario> {
  return {
    async echo(client, sessionId, rest, signal) {
      return (await streamText(client, sessionId, `You said: ${rest}`, { chunkSize: 5, signal })) ? 'end_turn' : 'cancelled';
    },
    async commands(client, sessionId, rest) {
      const availableCommands = rest.split(/\s+/).filter(Boolean).map((name) => ({ name, description: `The ${name} command` }));
      await update(client, sessionId, { sessionUpdate: 'available_commands_update', availableCommands });
      await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Listed ${availableCommands.length} commands.` } });
      return 'end_turn';
    },
    async slow(client, sessionId, _rest, signal) {
      const text = Array.from({ length: 400 }, (_, i) => `w${i} `).join('');
      return (await streamText(client, sessionId, text, { chunkSize: 4, delayMs: 25, signal })) ? 'end_turn' : 'cancelled';
    },
    async tool(client, sessionId) {
      await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read README.md', kind: 'read', status: 'pending', locations: [{ path: '/workspace/README.md', line: 3 }], rawInput: { path: 'README.md' } });
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'file contents' } }] });
      await streamText(client, sessionId, 'Read it.');
      return 'end_turn';
    },
    async permission(client, sessionId, _rest, signal) {
      await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit notes.md', kind: 'edit', status: 'pending' });
      const answer = await client.request(acp.methods.client.session.requestPermission, {
        sessionId, options: PERMISSION_OPTIONS, toolCall: { toolCallId: 'edit-1' },
      }, { cancellationSignal: signal });
      const outcome = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      if (outcome === 'cancelled') return 'cancelled';
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: outcome.startsWith('allow') ? 'completed' : 'failed' });
      await streamText(client, sessionId, `Permission outcome: ${outcome}`);
      return 'end_turn';
    },
    async 'two-permissions'(client, sessionId, _rest, signal) {
      const ask = async (toolCallId: string, title: string) => {
        await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'pending' });
        const answer = await client.request(acp.methods.client.session.requestPermission, { sessionId, options: PERMISSION_OPTIONS, toolCall: { toolCallId } }, { cancellationSignal: signal });
        return answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      };
      const paragraphs = (count: number) => streamText(client, sessionId, Array.from({ length: count }, (_, i) => `Paragraph ${i}.\n\n`).join(''), { chunkSize: 400 });
      // Text above and between the questions, so the thread scrolls with either one in view.
      await paragraphs(30);
      const first = ask('edit-a', 'Edit a.md');
      await paragraphs(60);
      const outcomes = await Promise.all([first, ask('edit-b', 'Edit b.md')]);
      await streamText(client, sessionId, `Permission outcomes: ${outcomes.join(', ')}`);
      return outcomes.includes('cancelled') ? 'cancelled' : 'end_turn';
    },
    async 'ghost-permission'(client, sessionId, _rest, signal) {
      const answer = await client.request(acp.methods.client.session.requestPermission, {
        sessionId, options: PERMISSION_OPTIONS, toolCall: { toolCallId: 'ghost-1', title: 'Run rm -rf build', kind: 'execute' },
      }, { cancellationSignal: signal });
      await streamText(client, sessionId, `Ghost outcome: ${answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled'}`);
      return 'end_turn';
    },
    async plan(client, sessionId) {
      const entries: acp.PlanEntry[] = [
        { content: 'Read the code', priority: 'high', status: 'completed' },
        { content: 'Write the fix', priority: 'medium', status: 'in_progress' },
      ];
      await update(client, sessionId, { sessionUpdate: 'plan', entries });
      await update(client, sessionId, { sessionUpdate: 'plan', entries: entries.map((entry) => ({ ...entry, status: 'completed' as const })) });
      return 'end_turn';
    },
    async malformed(client, sessionId) {
      output.write('this is not json {\n');
      await streamText(client, sessionId, 'Still here after a malformed line.');
      return 'end_turn';
    },
    async crash(client, sessionId) {
      await streamText(client, sessionId, 'About to crash.');
      host.log('scripted agent: fatal error: simulated crash');
      await sleep(20);
      host.exit(3);
      // The agent is gone: its turn is never answered.
      return new Promise<never>(() => undefined);
    },
    async 'spawn-children'(client, sessionId) {
      const pids = [0, 1].map(() => host.spawnChild('sleep', ['1000']));
      await streamText(client, sessionId, `children: ${pids.join(',')}`, { chunkSize: 100 });
      return 'end_turn';
    },
    async mcp(client, sessionId, _rest, _signal, session) {
      const stored = readSessions(session.cwd).find((candidate) => candidate.sessionId === sessionId);
      const servers = (stored?.mcpServers ?? []).map((server) => `${server.name}:${'type' in server ? server.type : 'stdio'}`);
      await streamText(client, sessionId, `MCP servers: ${servers.join(', ') || 'none'}`, { chunkSize: 200 });
      return 'end_turn';
    },
    async flood(client, sessionId, rest) {
      const count = Number(rest) || 1000;
      for (let i = 0; i < count; i++) await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'chunk-of-12 ' } });
      return 'end_turn';
    },
  };
}

/** `session/fork` is not in the stable SDK, so its params are read as sent. */
const forkParams = (params: unknown) => params as { sessionId: string; cwd: string; mcpServers?: acp.McpServer[] };

/** Serves one client until the streams close; null when SCRIPTED_AGENT_EXIT_ON_START ended it before that. */
export function serveScriptedAgent(streams: ScriptedAgentStreams, options: ScriptedAgentOptions): acp.AgentConnection | null {
  const { env, host } = options;
  const refusal = env.SCRIPTED_AGENT_EXIT_ON_START;
  if (refusal) {
    host.log('scripted agent: refusing to start (SCRIPTED_AGENT_EXIT_ON_START)');
    host.exit(Number(refusal));
    return null;
  }
  const cancels = new CancelFlags();
  const sessions = new Map<string, ScriptedSession>();
  const terminalSignIn = new TerminalSignIn(env, options.invocation);
  const apiKey = new ApiKeySignIn(env);
  const conversation = new ScriptedConversation(env);
  const extras = new AgentExtras(env, host);
  const banner = extras.banner();
  if (banner) streams.output.write(banner);
  // Topic scenario modules add themselves here.
  const scenarios: Record<string, Scenario> = { ...coreScenarios(streams.output, host), ...terminalScenarios, ...fsScenarios, ...conversation.scenarios, ...elicitationScenarios, ...consentScenarios, ...extras.scenarios };
  // Session ids stay unique across agents that share a workspace's session store.
  const idPrefix = `scripted-${randomUUID().slice(0, 8)}`;
  let nextSession = 1;
  let clientCapabilities: acp.ClientCapabilities = {};
  const forks = env.SCRIPTED_AGENT_FORK === '1';
  const geminiLoad = env.SCRIPTED_AGENT_GEMINI_LOAD === '1';
  const openSession = async (client: acp.AgentContext, cwd: string, mcpServers: acp.McpServer[]) => {
    terminalSignIn.require('session');
    apiKey.require();
    const known = readSessions(cwd).length;
    const sessionId = `${idPrefix}-${nextSession++}`;
    sessions.set(sessionId, { cwd, clientCapabilities });
    saveSession({ sessionId, cwd, title: `Scripted session ${known + 1}`, updatedAt: new Date().toISOString(), mcpServers, history: [] });
    await extras.beforeSessionAnswer(client, sessionId);
    return { sessionId, ...conversation.sessionOptionsFor(sessionId, clientCapabilities) };
  };
  const storedSession = (cwd: string, sessionId: string) => {
    const stored = readSessions(cwd).find((candidate) => candidate.sessionId === sessionId);
    if (!stored) throw acp.RequestError.resourceNotFound(sessionId);
    sessions.set(stored.sessionId, { cwd: stored.cwd, clientCapabilities });
    return stored;
  };

  const app = extras.withHandlers(conversation.withHandlers(acp.agent({ name: 'scripted-agent' })))
    .onRequest(acp.methods.agent.initialize, async (ctx) => {
      clientCapabilities = ctx.params.clientCapabilities ?? {};
      await extras.beforeInitializeAnswer();
      return {
        protocolVersion: extras.protocolVersion(),
        agentCapabilities: {
          loadSession: true,
          sessionCapabilities: { list: {}, ...(geminiLoad ? {} : { resume: {} }), close: {}, delete: {}, ...(forks ? { fork: {} } : {}) },
          mcpCapabilities: { http: true, sse: false },
          promptCapabilities: conversation.promptCapabilities(),
        },
        agentInfo: { name: 'scripted-agent', title: 'Scripted agent', version: '1.0.0' },
        authMethods: [...terminalSignIn.methods(clientCapabilities), ...apiKey.methods()],
        _meta: extras.initializeMeta(),
      };
    })
    .onRequest(acp.methods.agent.authenticate, (ctx) => {
      apiKey.authenticate(ctx.params.methodId);
      return {};
    })
    .onRequest(acp.methods.agent.session.new, (ctx) => openSession(ctx.client, ctx.params.cwd, ctx.params.mcpServers))
    .onRequest('session/fork', forkParams, (ctx) => {
      if (!forks) throw acp.RequestError.methodNotFound('session/fork');
      return openSession(ctx.client, ctx.params.cwd, ctx.params.mcpServers ?? []);
    })
    .onRequest(acp.methods.agent.session.load, async (ctx) => {
      const stored = storedSession(ctx.params.cwd, ctx.params.sessionId);
      const replay = async () => {
        for (const entry of stored.history) {
          await update(ctx.client, stored.sessionId, entry.role === 'tool'
            ? { sessionUpdate: 'tool_call', ...entry.call }
            : { sessionUpdate: entry.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'text', text: entry.text } });
        }
      };
      // Gemini CLI starts its replay and answers without waiting for it: most of it comes after the answer.
      if (geminiLoad) void replay();
      else await replay();
      return {};
    })
    .onRequest(acp.methods.agent.session.resume, (ctx) => {
      storedSession(ctx.params.cwd, ctx.params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.list, (ctx) => {
      const all = readSessions(ctx.params.cwd ?? options.cwd).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      // Two per page, so clients must follow the cursor.
      const start = Number(ctx.params.cursor ?? 0);
      const page = all.slice(start, start + 2);
      return { sessions: page.map(({ sessionId, cwd, title, updatedAt }) => ({ sessionId, cwd, title, updatedAt })), nextCursor: start + 2 < all.length ? String(start + 2) : null };
    })
    .onRequest(acp.methods.agent.session.close, (ctx) => {
      sessions.delete(ctx.params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.delete, (ctx) => {
      const cwd = sessions.get(ctx.params.sessionId)?.cwd ?? options.cwd;
      sessions.delete(ctx.params.sessionId);
      if (!deleteStoredSession(cwd, ctx.params.sessionId)) throw acp.RequestError.resourceNotFound(ctx.params.sessionId);
      return {};
    })
    .onNotification(acp.methods.agent.session.cancel, (ctx) => cancels.cancel(ctx.params.sessionId))
    .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
      terminalSignIn.require('prompt');
      const text = promptText(ctx.params.prompt);
      // The scenario is named by the user's own words. Tandem's notes (what the user undid or restored)
      // come as text blocks after them, and go to whichever conversation asks first after a reload.
      const ownWords = promptText(ctx.params.prompt.filter((block) => !(block.type === 'text' && block.text.startsWith(EDITOR_NOTE_PREFIX))));
      const [word = 'echo', ...restWords] = ownWords.split(/\s+/);
      // An echo with notes repeats the whole prompt, block by block: tests read from it what reached the agent.
      const scenario = word === 'echo' && ownWords !== text ? undefined : scenarios[word];
      // A closed connection stops the turn too: an agent in memory outlives nothing it served.
      const signal = AbortSignal.any([cancels.begin(ctx.params.sessionId), ctx.signal]);
      const session = sessions.get(ctx.params.sessionId) ?? { cwd: options.cwd, clientCapabilities };
      const record = turnRecord();
      const client = recordingClient(ctx.client, record);
      const stopReason = scenario
        ? await scenario(client, ctx.params.sessionId, restWords.join(' '), signal, session)
        : await (scenarios.echo as Scenario)(client, ctx.params.sessionId, text, signal, session);
      const stored = readSessions(session.cwd).find((candidate) => candidate.sessionId === ctx.params.sessionId);
      if (stored) saveSession({ ...stored, updatedAt: new Date().toISOString(), history: [...stored.history, { role: 'user', text }, ...[...record.tools.values()].map((call) => ({ role: 'tool' as const, call })), { role: 'agent', text: record.said.join('') }] });
      return { stopReason };
    });
  return app.connect(acp.ndJsonStream(Writable.toWeb(streams.output) as WritableStream<Uint8Array>, Readable.toWeb(streams.input) as ReadableStream<Uint8Array>));
}
