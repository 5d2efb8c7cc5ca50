/**
 * The command an execute tool call runs, as agents put it in its raw input: Claude Code and
 * OpenCode a string, Codex the words. Plain data, no SDK: src/contract publishes it to the webview.
 */
import { isRecord } from '../util/untrustedJson';

/** A word of a command given as words, quoted as a POSIX shell would need it, so the words read as they run. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command a tool's raw input names (`command` as a string or as words, or `cmd`), or null. */
export function commandOfRawInput(input: unknown): string | null {
  if (isRecord(input)) {
    if (typeof input.command === 'string' && input.command) return input.command;
    if (Array.isArray(input.command) && input.command.length > 0 && input.command.every((word) => typeof word === 'string')) return input.command.map(shellWord).join(' ');
    if (typeof input.cmd === 'string' && input.cmd) return input.cmd;
  }
  return null;
}
