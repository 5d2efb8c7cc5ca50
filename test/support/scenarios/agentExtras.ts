/**
 * What real agents add on top of ACP, scripted with the wire shapes the Claude and Codex
 * adapters use (read from their published code):
 *
 *   steerable            streams "working" until a message is steered in (`_session/steering`), then answers it
 *   compaction           a context compaction (150000 tokens -> 12000) with a streamed summary
 *   rate-limits          usage with Claude's `_meta["_claude/rateLimit"]` for the 5-hour and weekly windows
 *   notices              one `notice` of each severity
 *   subagent             an Agent tool call whose subagent reads, edits a file and talks, stamped with
 *                        `_meta.claudeCode.parentToolUseId`
 *   unknown-tool-update  a `tool_call_update` for a call never announced, then text
 *
 * Env: SCRIPTED_AGENT_STEERING=1 advertises steering in `initialize` (`_meta.steering.supported`);
 * SCRIPTED_AGENT_STEERING=new-turn answers `startedNewTurn` instead of `injected`.
 * SCRIPTED_AGENT_EARLY_UPDATES=1 sends updates for a new session before answering `session/new`.
 * SCRIPTED_AGENT_HANDSHAKE: `silent` never answers `initialize`; `protocol-2` answers it with
 * protocol version 2; `exit-on-session` logs and exits when asked for a session; `banner` prints
 * lines that are not JSON on stdout before anything else.
 */
import * as acp from '@agentclientprotocol/sdk';
import { sleep, streamText, update } from '../../../src/demo-agent/agentKit';
import type { Scenario, ScriptedAgentEnv } from './scenario';

/** What the handshake faults need of the agent's process (a subset of ScriptedAgentHost). */
interface ExtrasHost {
  log(line: string): void;
  exit(code: number): void;
}

interface SteerParams {
  sessionId: string;
  prompt: acp.ContentBlock[];
  _meta?: { steering?: { idleBehavior?: string } };
}

function steerParams(raw: unknown): SteerParams {
  const params = raw as Partial<SteerParams> | null;
  if (!params || typeof params.sessionId !== 'string' || !Array.isArray(params.prompt) || params.prompt.length === 0) {
    throw acp.RequestError.invalidParams(undefined, 'steer params require a sessionId and a non-empty prompt');
  }
  return params as SteerParams;
}

const STEER_WAIT_MS = 10_000;

export class AgentExtras {
  /** Per session: the running `steerable` turn's inbox. */
  private readonly inboxes = new Map<string, (text: string) => void>();

  constructor(private readonly env: ScriptedAgentEnv, private readonly host: ExtrasHost) {}

  /** Written to stdout before the agent speaks ACP at all. */
  banner(): string {
    return this.env.SCRIPTED_AGENT_HANDSHAKE === 'banner' ? 'Welcome to the scripted agent!\nLoading plugins...\n' : '';
  }

  /** Resolves when the agent is ready to answer `initialize` (never, for `silent`). */
  beforeInitializeAnswer(): Promise<void> {
    if (this.env.SCRIPTED_AGENT_HANDSHAKE !== 'silent') return Promise.resolve();
    this.host.log('scripted agent: waiting for a license server that never answers');
    return new Promise<void>(() => undefined);
  }

  protocolVersion(): number {
    return this.env.SCRIPTED_AGENT_HANDSHAKE === 'protocol-2' ? 2 : acp.PROTOCOL_VERSION;
  }

  /** The `_meta` of the `initialize` answer. */
  initializeMeta(): Record<string, unknown> | undefined {
    return this.env.SCRIPTED_AGENT_STEERING ? { steering: { supported: true } } : undefined;
  }

  /** Updates an agent sends for a session whose `session/new` it has not answered yet. */
  async beforeSessionAnswer(client: acp.AgentContext, sessionId: string): Promise<void> {
    if (this.env.SCRIPTED_AGENT_HANDSHAKE === 'exit-on-session') {
      this.host.log(`scripted agent: fatal: cannot create the session store at ${this.env.SCRIPTED_AGENT_STORE_URL ?? 'memory'}`);
      this.host.exit(4);
      return new Promise<void>(() => undefined);
    }
    if (this.env.SCRIPTED_AGENT_EARLY_UPDATES !== '1') return;
    await update(client, sessionId, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'early', description: 'Announced before session/new was answered' }] });
    await update(client, sessionId, { sessionUpdate: 'session_info_update', title: 'Early title' });
    await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello before the answer.' } });
  }

  withHandlers(app: acp.AgentApp): acp.AgentApp {
    return app.onRequest('_session/steering', steerParams, (ctx) => {
      const inbox = this.inboxes.get(ctx.params.sessionId);
      const text = ctx.params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
      if (!inbox) return ctx.params._meta?.steering?.idleBehavior === 'promptRequired' ? { outcome: 'promptRequired', reason: 'noRunningTurn' } : { outcome: 'startedNewTurn' };
      inbox(text);
      return { outcome: this.env.SCRIPTED_AGENT_STEERING === 'new-turn' ? 'startedNewTurn' : 'injected' };
    });
  }

  get scenarios(): Record<string, Scenario> {
    return {
      steerable: (client, sessionId, _rest, signal) => this.steerable(client, sessionId, signal),
      compaction: async (client, sessionId) => {
        await update(client, sessionId, { sessionUpdate: 'usage_update', used: 150_000, size: 200_000 });
        await update(client, sessionId, { sessionUpdate: 'compaction_update', compactionId: 'compact-1', status: 'in_progress' });
        await update(client, sessionId, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'compact-1', content: { type: 'text', text: 'We fixed the parser; ' } });
        await update(client, sessionId, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'compact-1', content: { type: 'text', text: 'tests pass.' } });
        await update(client, sessionId, { sessionUpdate: 'compaction_update', compactionId: 'compact-1', status: 'completed' });
        await update(client, sessionId, { sessionUpdate: 'usage_update', used: 12_000, size: 200_000 });
        await streamText(client, sessionId, 'Compacted.');
        return 'end_turn';
      },
      'rate-limits': async (client, sessionId, rest) => {
        const resetsAt = Number(rest) || Math.floor(Date.now() / 1000) + 3600;
        await update(client, sessionId, { sessionUpdate: 'usage_update', used: 1000, size: 200_000, _meta: { '_claude/rateLimit': { status: 'allowed_warning', rateLimitType: 'five_hour', utilization: 0.82, resetsAt } } });
        await update(client, sessionId, { sessionUpdate: 'usage_update', used: 1200, size: 200_000, _meta: { '_claude/rateLimit': { status: 'allowed', rateLimitType: 'seven_day', utilization: 0.3, resetsAt: resetsAt + 86_400 * 3 } } });
        await streamText(client, sessionId, 'Limits reported.');
        return 'end_turn';
      },
      notices: async (client, sessionId) => {
        await update(client, sessionId, { sessionUpdate: 'notice', severity: 'info', title: 'Indexing done' });
        await update(client, sessionId, { sessionUpdate: 'notice', severity: 'warning', title: 'Slow model', description: 'Responses may take longer' });
        await update(client, sessionId, { sessionUpdate: 'notice', severity: 'error', title: 'Hook failed' });
        return 'end_turn';
      },
      subagent: async (client, sessionId, _rest, _signal, session) => {
        const child = (toolCallId: string) => ({ _meta: { claudeCode: { parentToolUseId: 'task-1', toolName: toolCallId } } });
        await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'task-1', title: 'Agent: fix the parser', kind: 'think', status: 'in_progress' });
        await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'sub-read', title: 'Read parser.ts', kind: 'read', status: 'completed', locations: [{ path: `${session.cwd}/parser.ts` }], ...child('Read') });
        await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The subagent found the bug.' }, ...child('text') });
        await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'sub-edit', title: 'Edit parser.ts', kind: 'edit', status: 'pending', ...child('Edit') });
        await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'sub-edit', status: 'completed', content: [{ type: 'diff', path: `${session.cwd}/parser.ts`, oldText: 'a', newText: 'b' }] });
        await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'task-1', status: 'completed' });
        await streamText(client, sessionId, 'The subagent is done.');
        return 'end_turn';
      },
      'unknown-tool-update': async (client, sessionId) => {
        await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'never-announced', status: 'completed', title: 'Ran a check', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] });
        await streamText(client, sessionId, 'After the unknown call.');
        return 'end_turn';
      },
    };
  }

  private async steerable(client: acp.AgentContext, sessionId: string, signal: AbortSignal): Promise<acp.StopReason> {
    let steered: string | null = null;
    this.inboxes.set(sessionId, (text) => {
      steered = text;
    });
    try {
      const deadline = Date.now() + STEER_WAIT_MS;
      while (steered === null && Date.now() < deadline && !signal.aborted) {
        await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working ' } });
        await sleep(20, signal);
      }
    } finally {
      this.inboxes.delete(sessionId);
    }
    if (signal.aborted) return 'cancelled';
    await streamText(client, sessionId, steered === null ? 'Nothing was steered in.' : `Took in: ${steered as string}`, { chunkSize: 100 });
    return 'end_turn';
  }
}
