/**
 * Scripted-agent scenarios for the full conversation: tool cards of every kind, plans, thoughts,
 * usage, commands, notices, permissions, and session config (config options or legacy modes and
 * models, chosen by SCRIPTED_AGENT_OPTIONS=config|legacy).
 *
 *   conversation          a plan, a thought, a read, a search, an edit that asks permission
 *                         (with its diff), a command with output, usage and a title
 *   reads <n>             n read/search tool calls in a row, then a message
 *   usage <used> <size> [cost]   one usage_update
 *   costly <cost>         a command running while a usage_update reports the cumulative cost, then a long answer
 *   notice <severity> <text>     one notice
 *   ask <kind> <path|command>    a tool call of that kind asking permission; replies the outcome
 *   options               replies with the session's config state as JSON
 *   slow-chunks <base64>  each string of a JSON array (base64, so the prompt does not hold
 *                         the text) as a message chunk, 800 ms apart
 */
import * as acp from '@agentclientprotocol/sdk';
import { PERMISSION_OPTIONS, sleep, streamText, update } from '../../../src/demo-agent/agentKit';
import type { Scenario, ScriptedAgentEnv } from './scenario';

type OptionsKind = 'config' | 'legacy' | 'none';
/** A value the agent refuses, so clients can show their rollback. */
export const REFUSED_VALUE = 'refuse-me';

const MODES = [
  { id: 'default', name: 'Ask', description: 'Asks before edits' },
  { id: 'auto', name: 'Auto', description: 'Edits without asking' },
  { id: 'plan', name: 'Plan', description: 'Read-only' },
];
const MODELS = [
  { modelId: 'scripted-large', name: 'Scripted Large', description: 'Slow and thorough' },
  { modelId: 'scripted-small', name: 'Scripted Small' },
  { modelId: REFUSED_VALUE, name: 'Refused model' },
];

interface SessionConfig {
  mode: string;
  model: string;
  effort: string;
  fast: boolean;
  booleans: boolean;
}

function configOptions(config: SessionConfig): acp.SessionConfigOption[] {
  const options: acp.SessionConfigOption[] = [
    { id: 'effort', name: 'Effort', category: 'thought_level', type: 'select', currentValue: config.effort,
      options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }, { value: REFUSED_VALUE, name: 'Refused' }] },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: config.model, options: [
      { group: 'fast', name: 'Fast models', options: [{ value: 'scripted-small', name: 'Scripted Small' }] },
      { group: 'smart', name: 'Smart models', options: [{ value: 'scripted-large', name: 'Scripted Large', description: 'Slow and thorough' }] },
    ] },
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: config.mode, options: MODES.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description })) },
  ];
  if (config.booleans) options.push({ id: 'fast', name: 'Fast mode', category: 'model_config', type: 'boolean', currentValue: config.fast });
  return options;
}

function refuse(value: unknown): void {
  if (value === REFUSED_VALUE) throw acp.RequestError.invalidParams(undefined, `The scripted agent refuses ${REFUSED_VALUE}.`);
}

const setModelParams = (params: unknown) => params as { sessionId: string; modelId: string };

/** Claude's "always" on its edit card, which lasts for the session. */
const SESSION_OPTIONS = PERMISSION_OPTIONS.map((option) => (option.kind === 'allow_always' ? { ...option, name: 'Yes, allow all edits during this session' } : option));

async function ask(client: acp.AgentContext, sessionId: string, toolCall: acp.ToolCallUpdate, signal: AbortSignal, options = PERMISSION_OPTIONS): Promise<string> {
  const answer = await client.request(acp.methods.client.session.requestPermission, { sessionId, options, toolCall }, { cancellationSignal: signal });
  return answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
}

const plan = (done: number): acp.SessionUpdate => ({
  sessionUpdate: 'plan',
  entries: ['Read the code', 'Search for callers', 'Edit the greeting', 'Run the tests'].map((content, index) => ({
    content, priority: 'medium' as const, status: index < done ? 'completed' as const : index === done ? 'in_progress' as const : 'pending' as const,
  })),
});

const conversationScenarios: Record<string, Scenario> = {
  async conversation(client, sessionId, _rest, signal, session) {
    const file = `${session.cwd}/src/greeting.ts`;
    await update(client, sessionId, { sessionUpdate: 'available_commands_update', availableCommands: [
      { name: 'review', description: 'Review the pending changes' },
      { name: 'test', description: 'Run the tests', input: { hint: 'a test name pattern' } },
    ] });
    await update(client, sessionId, plan(0));
    await streamText(client, sessionId, 'I should **read** the greeting first, then edit it.', { kind: 'agent_thought_chunk', chunkSize: 10 });
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'conv-read', title: 'Read src/greeting.ts', kind: 'read', status: 'in_progress', locations: [{ path: file, line: 1 }] });
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'conv-read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'export const greeting = "hello";' } }] });
    await update(client, sessionId, plan(1));
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'conv-search', title: 'grep -rn greeting src', kind: 'search', status: 'completed', locations: [{ path: file, line: 1 }] });
    await update(client, sessionId, plan(2));
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'conv-edit', title: 'Edit src/greeting.ts', kind: 'edit', status: 'pending', locations: [{ path: file, line: 1 }],
      content: [{ type: 'diff', path: file, oldText: 'export const greeting = "hello";\n', newText: 'export const greeting = "hello, world";\n' }] });
    const outcome = await ask(client, sessionId, { toolCallId: 'conv-edit' }, signal);
    if (outcome === 'cancelled') return 'cancelled';
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'conv-edit', status: outcome.startsWith('allow') ? 'completed' : 'failed' });
    await update(client, sessionId, plan(3));
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'conv-run', title: 'npm test -- --grep greeting', kind: 'execute', status: 'in_progress', rawInput: { command: 'npm test -- --grep greeting' } });
    await sleep(50, signal);
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'conv-run', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '1 passing (4ms)' } }] });
    await update(client, sessionId, plan(4));
    await update(client, sessionId, { sessionUpdate: 'usage_update', used: 53_000, size: 200_000, cost: { amount: 0.042, currency: 'USD' } });
    await update(client, sessionId, { sessionUpdate: 'session_info_update', title: 'Greet the world' });
    await streamText(client, sessionId, `Permission outcome: ${outcome}. Updated the greeting:\n\n\`\`\`ts\nexport const greeting = "hello, world";\n\`\`\`\n`, { chunkSize: 16 });
    return 'end_turn';
  },
  async reads(client, sessionId, rest, _signal, session) {
    const count = Math.min(Number(rest) || 3, 5000);
    for (let i = 0; i < count; i++) {
      const kind = i % 3 === 2 ? 'search' : 'read';
      await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: `reads-${Date.now()}-${i}`, title: kind === 'read' ? `Read file-${i}.ts` : `grep -n thing file-${i}.ts`, kind, status: 'completed', locations: [{ path: `${session.cwd}/file-${i}.ts` }] });
    }
    await streamText(client, sessionId, `Read ${count} files.`);
    return 'end_turn';
  },
  // A step that costs `rest` dollars while a command runs, then a long answer: what a budget stops.
  async costly(client, sessionId, rest, signal) {
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'costly-run', title: 'npm run build', kind: 'execute', status: 'in_progress' });
    await update(client, sessionId, { sessionUpdate: 'usage_update', used: 9_000, size: 200_000, cost: { amount: Number(rest), currency: 'USD' } });
    await sleep(300, signal);
    // Stopped mid-command, the command is killed, as a real agent's would be.
    if (signal.aborted) {
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'costly-run', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'killed' } }] });
      return 'cancelled';
    }
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'costly-run', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'built' } }] });
    await sleep(3_000, signal);
    if (signal.aborted) return 'cancelled';
    return (await streamText(client, sessionId, 'Finished the costly work.', { signal })) ? 'end_turn' : 'cancelled';
  },
  async usage(client, sessionId, rest) {
    const [used = '0', size = '0', cost] = rest.split(' ');
    await update(client, sessionId, { sessionUpdate: 'usage_update', used: Number(used), size: Number(size), ...(cost ? { cost: { amount: Number(cost), currency: 'USD' } } : {}) });
    await streamText(client, sessionId, 'Usage sent.');
    return 'end_turn';
  },
  // Further apart than the traffic view holds a piece that ends inside a word (500 ms).
  async 'slow-chunks'(client, sessionId, rest, signal) {
    const pieces = JSON.parse(Buffer.from(rest, 'base64').toString('utf8')) as string[];
    for (const [index, text] of pieces.entries()) {
      if (index > 0) await sleep(800, signal);
      await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    }
    return 'end_turn';
  },
  async notice(client, sessionId, rest) {
    const [severity = 'info', ...words] = rest.split(' ');
    await update(client, sessionId, { sessionUpdate: 'notice', severity, title: words.join(' ') } as acp.SessionUpdate);
    return 'end_turn';
  },
  /** `ask <kind> <path or command>`; `ask session <kind> …` offers Claude's session-long "always". */
  async ask(client, sessionId, rest, signal) {
    const sessionLong = rest.startsWith('session ');
    const [kind = 'read', ...subject] = (sessionLong ? rest.slice('session '.length) : rest).split(' ');
    const target = subject.join(' ');
    const isCommand = kind === 'execute';
    const toolCallId = `ask-${Date.now()}`;
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: isCommand ? target : `${kind} ${target}`, kind: kind as acp.ToolKind, status: 'pending',
      ...(isCommand ? { rawInput: { command: target } } : { locations: [{ path: target }] }) });
    const outcome = await ask(client, sessionId, { toolCallId }, signal, sessionLong ? SESSION_OPTIONS : PERMISSION_OPTIONS);
    await streamText(client, sessionId, `Outcome: ${outcome}`);
    return outcome === 'cancelled' ? 'cancelled' : 'end_turn';
  },
};

/** One agent's session config and prompt capabilities, chosen by its environment. */
export class ScriptedConversation {
  private readonly configs = new Map<string, SessionConfig>();
  private readonly optionsKind: OptionsKind;
  private readonly richPrompts: boolean;
  /** The conversation scenarios, with `options` answering from this agent's configs. */
  readonly scenarios: Record<string, Scenario>;

  constructor(env: ScriptedAgentEnv) {
    this.optionsKind = env.SCRIPTED_AGENT_OPTIONS === 'config' ? 'config' : env.SCRIPTED_AGENT_OPTIONS === 'legacy' ? 'legacy' : 'none';
    // SCRIPTED_AGENT_PROMPT=rich: the agent takes images and embedded context.
    this.richPrompts = env.SCRIPTED_AGENT_PROMPT === 'rich';
    this.scenarios = {
      ...conversationScenarios,
      options: async (client, sessionId) => {
        await streamText(client, sessionId, JSON.stringify(this.configs.get(sessionId) ?? null), { chunkSize: 1000 });
        return 'end_turn';
      },
    };
  }

  /** Extra fields of the `session/new` answer. */
  sessionOptionsFor(sessionId: string, capabilities: acp.ClientCapabilities): Partial<acp.NewSessionResponse> & { models?: unknown } {
    const config: SessionConfig = { mode: 'default', model: 'scripted-large', effort: 'low', fast: false, booleans: Boolean(capabilities.session?.configOptions?.boolean) };
    this.configs.set(sessionId, config);
    if (this.optionsKind === 'config') return { configOptions: configOptions(config) };
    if (this.optionsKind === 'legacy') return { modes: { currentModeId: config.mode, availableModes: MODES }, models: { availableModels: MODELS, currentModelId: config.model } };
    return {};
  }

  promptCapabilities(): acp.PromptCapabilities {
    return { image: this.richPrompts, embeddedContext: this.richPrompts };
  }

  /** The config methods, on the agent app the scripted agent builds. */
  withHandlers(app: acp.AgentApp): acp.AgentApp {
    return app
      .onRequest(acp.methods.agent.session.setConfigOption, async (ctx) => {
        const config = this.configOf(ctx.params.sessionId);
        const { configId, value } = ctx.params;
        refuse(value);
        if (configId === 'fast' && typeof value === 'boolean') config.fast = value;
        else if ((configId === 'mode' || configId === 'model' || configId === 'effort') && typeof value === 'string') config[configId] = value;
        else throw acp.RequestError.invalidParams(undefined, `Unknown option ${configId}`);
        if (configId === 'mode') await update(ctx.client, ctx.params.sessionId, { sessionUpdate: 'current_mode_update', currentModeId: config.mode });
        return { configOptions: configOptions(config) };
      })
      .onRequest(acp.methods.agent.session.setMode, async (ctx) => {
        const config = this.configOf(ctx.params.sessionId);
        refuse(ctx.params.modeId);
        config.mode = ctx.params.modeId;
        await update(ctx.client, ctx.params.sessionId, { sessionUpdate: 'current_mode_update', currentModeId: config.mode });
        return {};
      })
      .onRequest('session/set_model', setModelParams, (ctx) => {
        const config = this.configOf(ctx.params.sessionId);
        refuse(ctx.params.modelId);
        config.model = ctx.params.modelId;
        return {};
      });
  }

  private configOf(sessionId: string): SessionConfig {
    const config = this.configs.get(sessionId);
    if (!config) throw acp.RequestError.resourceNotFound(sessionId);
    return config;
  }
}
