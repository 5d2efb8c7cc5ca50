import type { CommandView } from '../src/contract/conversationView';

/** The `/` or `@` being typed before the caret, if any. */
export interface Trigger {
  char: '/' | '@';
  query: string;
  /** Where the trigger character is in the text. */
  start: number;
}

/** `/` completes only at the very start of the message; `@` after a space or at the start. */
export function findTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  const command = /^\/([^\s/]*)$/.exec(before);
  if (command) return { char: '/', query: command[1] ?? '', start: 0 };
  const mention = /(^|\s)@([^\s@]*)$/.exec(before);
  if (mention) return { char: '@', query: mention[2] ?? '', start: before.length - (mention[2] ?? '').length - 1 };
  return null;
}

export function matchCommands(commands: readonly CommandView[], query: string): CommandView[] {
  const q = query.toLowerCase();
  const starts = commands.filter((command) => command.name.toLowerCase().startsWith(q));
  const contains = commands.filter((command) => !command.name.toLowerCase().startsWith(q) && command.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, 50);
}
