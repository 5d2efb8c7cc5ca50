import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { DemoTurn } from './demoSession';
import type { CheckOutcome } from './voice';

/** The sample project's own check (its `npm test`), run from its folder. */
const CHECK_SCRIPT = 'scripts/check.mjs';
export const CHECK_COMMAND_LINE = `node ${CHECK_SCRIPT}`;

function onPath(program: string): boolean {
  const names = process.platform === 'win32' ? [`${program}.exe`, `${program}.cmd`] : [program];
  return (process.env.PATH ?? '').split(delimiter).some((dir) => names.some((name) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }));
}

/**
 * `node` as the user would type it when there is one on PATH; otherwise the program running
 * this agent, which in desktop VS Code is the editor's own executable and only acts as Node
 * when told to.
 */
function nodeCommand(): { command: string; env: acp.EnvVariable[] } {
  if (onPath('node')) return { command: 'node', env: [] };
  return { command: process.execPath, env: process.versions.electron ? [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }] : [] };
}

/** The output's last line without colours: the check ends with its verdict. */
function lastLine(output: string): string {
  // eslint-disable-next-line no-control-regex -- ANSI colour codes are what is being removed
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.at(-1) ?? '(no output)';
}

/**
 * Runs the check in a terminal the client shows live in an execute card, waits for it to
 * exit and reads its output. Without client terminals nothing runs: the demo never starts
 * processes of its own.
 */
export async function runCheck(turn: DemoTurn): Promise<CheckOutcome | 'cancelled'> {
  if (!turn.session.offers.terminal) return { ran: false, exitCode: null, summary: '' };
  const { client, session, signal } = turn;
  const sessionId = session.id;
  const { command, env } = nodeCommand();
  const { terminalId } = await client.request(acp.methods.client.terminal.create, { sessionId, command, args: [CHECK_SCRIPT], cwd: session.cwd, env, outputByteLimit: 64 * 1024 });
  const toolCallId = turn.nextToolCallId('run');
  await turn.send({
    sessionUpdate: 'tool_call', toolCallId, title: CHECK_COMMAND_LINE, kind: 'execute', status: 'in_progress',
    content: [{ type: 'terminal', terminalId }], rawInput: { command: CHECK_COMMAND_LINE, cwd: session.cwd },
  });
  try {
    const exit = await turn.unlessStopped(client.request(acp.methods.client.terminal.waitForExit, { sessionId, terminalId }, { cancellationSignal: signal }));
    if (exit === 'cancelled') return 'cancelled';
    const { output } = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
    const exitCode = exit.exitCode ?? null;
    await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: exitCode === 0 ? 'completed' : 'failed', rawOutput: { exitCode, signal: exit.signal ?? null } });
    return { ran: true, exitCode, summary: lastLine(output) };
  } finally {
    // The card keeps the output; releasing ends the process if Stop left it running.
    await client.request(acp.methods.client.terminal.release, { sessionId, terminalId }).catch(() => undefined);
  }
}
