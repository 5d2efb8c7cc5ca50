/**
 * Scripted-agent scenarios that drive the client's `terminal/*` (no big agent calls them):
 *
 *   terminal <json>   runs a TerminalScript and replies with its results as one JSON message
 *   command-output    an execute tool call whose output comes as text content (no terminal at all),
 *                     the way agents without display terminals report a command
 *   display-terminal  a command the agent "runs itself", reported through tool-call `_meta`
 *                     (terminal_info, terminal_output, never an exit) until the turn is cancelled
 *
 * A script creates one terminal, optionally shows it in a tool call card, then runs its steps:
 *   output | wait | kill | release      the matching terminal/* request; its answer is recorded
 *   waitOutput:<text>                   polls terminal/output until the output contains <text>
 *   sleep:<ms>                          pauses
 * A step that fails records `{ step, error, code }` and ends the script.
 */
import * as acp from '@agentclientprotocol/sdk';
import { sleep, streamText, update } from '../../../src/demo-agent/agentKit';
import type { Scenario } from './scenario';

export interface TerminalScript {
  create: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; outputByteLimit?: number };
  /** Announce an execute tool call whose card shows the terminal, completed when the script ends. */
  toolCall?: boolean;
  steps: string[];
}

export interface TerminalStepResult {
  step: string;
  error?: string;
  code?: number;
  [key: string]: unknown;
}

export interface TerminalScriptResult {
  terminalId: string | null;
  results: TerminalStepResult[];
}

const WAIT_OUTPUT_MS = 15_000;

/** The prompt that runs `script` (the scripted agent splits prompts on whitespace: keep JSON compact). */
export function terminalPrompt(script: TerminalScript): string {
  return `terminal ${JSON.stringify(script)}`;
}

async function runStep(client: acp.AgentContext, sessionId: string, terminalId: string, step: string): Promise<TerminalStepResult> {
  const [name = '', argument = ''] = step.split(/:(.*)/s);
  const ids = { sessionId, terminalId };
  switch (name) {
    case 'output':
      return { ...(await client.request<acp.TerminalOutputResponse>(acp.methods.client.terminal.output, ids)), step };
    case 'wait':
      return { ...(await client.request<acp.WaitForTerminalExitResponse>(acp.methods.client.terminal.waitForExit, ids)), step };
    case 'kill':
      return { ...(await client.request<acp.KillTerminalResponse>(acp.methods.client.terminal.kill, ids)), step };
    case 'release':
      return { ...(await client.request<acp.ReleaseTerminalResponse>(acp.methods.client.terminal.release, ids)), step };
    case 'sleep':
      await sleep(Number(argument));
      return { step };
    case 'waitOutput': {
      const deadline = Date.now() + WAIT_OUTPUT_MS;
      for (;;) {
        const answer = await client.request<acp.TerminalOutputResponse>(acp.methods.client.terminal.output, ids);
        if (answer.output.includes(argument)) return { step, found: true };
        if (Date.now() > deadline || answer.exitStatus) return { step, found: false, output: answer.output };
        await sleep(50);
      }
    }
    default:
      return { step, error: `unknown step ${name}` };
  }
}

function failure(step: string, error: unknown): TerminalStepResult {
  const code = error instanceof acp.RequestError ? error.code : undefined;
  return { step, error: error instanceof Error ? error.message : String(error), ...(code === undefined ? {} : { code }) };
}

/** What `command-output` reports: a fenced console block with colours, as Claude Code sends it without `_meta.terminal_output`. */
export const COMMAND_OUTPUT_TEXT = '```console\n\u001b[33mwarning\u001b[0m: 1 unused variable\nbuild ok\n```';

export const terminalScenarios: Record<string, Scenario> = {
  async 'display-terminal'(client, sessionId, _rest, signal) {
    const meta = (extra: Record<string, unknown>) => ({ terminal_info: { terminal_id: 'display-1' }, ...extra });
    await update(client, sessionId, {
      sessionUpdate: 'tool_call', toolCallId: 'display-1', title: 'npm test', kind: 'execute', status: 'in_progress',
      rawInput: { command: 'npm test' }, content: [{ type: 'terminal', terminalId: 'display-1' }], _meta: meta({}),
    });
    for (let i = 0; i < 600 && !signal.aborted; i++) {
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'display-1', _meta: { terminal_output: { terminal_id: 'display-1', data: `test ${i} ok\n` } } });
      await sleep(50, signal);
    }
    return signal.aborted ? 'cancelled' : 'end_turn';
  },
  async 'command-output'(client, sessionId) {
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'build-1', title: 'npm run build', kind: 'execute', status: 'in_progress', rawInput: { command: 'npm run build' } });
    await update(client, sessionId, {
      sessionUpdate: 'tool_call_update', toolCallId: 'build-1', status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: COMMAND_OUTPUT_TEXT } }],
    });
    await streamText(client, sessionId, 'Built.');
    return 'end_turn';
  },
  async terminal(client, sessionId, rest, signal, session) {
    const script = JSON.parse(rest) as TerminalScript;
    const result: TerminalScriptResult = { terminalId: null, results: [] };
    const toolCallId = `terminal-call-${Date.now()}`;
    try {
      const { env = {}, ...create } = script.create;
      const created = await client.request<acp.CreateTerminalResponse, acp.CreateTerminalRequest>(acp.methods.client.terminal.create, {
        sessionId,
        ...create,
        cwd: create.cwd ?? session.cwd,
        env: Object.entries(env).map(([name, value]) => ({ name, value })),
      });
      result.terminalId = created.terminalId;
    } catch (error) {
      result.results.push(failure('create', error));
    }
    if (result.terminalId && script.toolCall) {
      await update(client, sessionId, {
        sessionUpdate: 'tool_call', toolCallId, title: script.create.command, kind: 'execute', status: 'in_progress',
        content: [{ type: 'terminal', terminalId: result.terminalId }], rawInput: script.create,
      });
    }
    for (const step of result.terminalId ? script.steps : []) {
      try {
        result.results.push(await runStep(client, sessionId, result.terminalId as string, step));
      } catch (error) {
        result.results.push(failure(step, error));
        break;
      }
    }
    if (result.terminalId && script.toolCall) {
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: signal.aborted ? 'failed' : 'completed' });
    }
    await streamText(client, sessionId, JSON.stringify(result), { chunkSize: 4096 });
    return signal.aborted ? 'cancelled' : 'end_turn';
  },
};
