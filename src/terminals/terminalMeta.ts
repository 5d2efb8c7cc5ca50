import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../util/untrustedJson';
import { commandOfRawInput } from '../acp/toolCommand';

/**
 * The de-facto "display terminal" keys agents put in a tool call's `_meta` when the client
 * advertises `_meta.terminal_output` (Claude Code, Codex): the agent runs the command itself
 * and reports it as a terminal the client shows.
 */
export type TerminalMetaEvent =
  | { type: 'info'; terminalId: string; cwd: string | null }
  | { type: 'output'; terminalId: string; data: string }
  | { type: 'exit'; terminalId: string; exitCode: number | null; signal: string | null };

function terminalIdOf(value: Record<string, unknown>): string | null {
  const id = value.terminal_id;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** The terminal events in one tool call update, in the order they apply: info, output, exit. */
export function terminalMetaEvents(meta: unknown): TerminalMetaEvent[] {
  if (!isRecord(meta)) return [];
  const events: TerminalMetaEvent[] = [];
  const info = meta.terminal_info;
  if (isRecord(info)) {
    const terminalId = terminalIdOf(info);
    if (terminalId) events.push({ type: 'info', terminalId, cwd: typeof info.cwd === 'string' ? info.cwd : null });
  }
  // `terminal_output` carries new output (Zed's and Codex's reading); `terminal_output_delta` is its explicit form.
  for (const key of ['terminal_output', 'terminal_output_delta']) {
    const output = meta[key];
    if (!isRecord(output)) continue;
    const terminalId = terminalIdOf(output);
    if (terminalId && typeof output.data === 'string') events.push({ type: 'output', terminalId, data: output.data });
  }
  const exit = meta.terminal_exit;
  if (isRecord(exit)) {
    const terminalId = terminalIdOf(exit);
    if (terminalId) {
      events.push({
        type: 'exit',
        terminalId,
        exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' && exit.signal ? exit.signal : null,
      });
    }
  }
  return events;
}

/** The command a tool call runs, from its input if it names one. */
export function commandOfToolCall(update: acp.ToolCall | acp.ToolCallUpdate): string | null {
  return commandOfRawInput(update.rawInput);
}
