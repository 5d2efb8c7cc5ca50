/**
 * Restoring the conversation to before a user message: it continues in a new tab (the original
 * stays as it is), showing what came before that message. Where the agent can fork its session
 * the fork keeps the earlier history and is told that the rest is withdrawn; otherwise it is a
 * new session, told what the user had asked before that point. Either way the thread says, word
 * for word, what the agent is told with the next message.
 */
import type { ThreadEntry } from '../thread/entries';
import { editorNote } from '../review/editorNote';

export interface ConversationRestoreInput {
  entries: readonly ThreadEntry[];
  /** The user message restored to (its thread entry id). */
  messageId: string;
  agentLabel: string;
  /** The agent offers session/fork and the conversation has a live session to fork. */
  canFork: boolean;
  /** The files were restored to that point too. */
  codeRestored: boolean;
}

export interface ConversationRestore {
  route: 'fork' | 'new';
  /** What the new tab shows: everything before the message. */
  entries: ThreadEntry[];
  /** The message restored to, to send again or change. */
  message: string;
  /** What the new tab's thread says about how it continues. */
  notice: string;
  /** Goes to the agent with the next message, ahead of the user's text. */
  agentNote: string;
}

/** Earlier questions the new session is told of, newest last, each cut short. */
const MAX_EARLIER_MESSAGES = 10;
const MAX_QUOTE_CHARS = 300;

function quote(text: string, max: number): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

function filesSentence(codeRestored: boolean): string {
  return codeRestored
    ? 'The project files were restored to how they were before that message; read files again rather than relying on what you saw of them.'
    : 'The project files were not restored: they still hold every change made since, so read files again before editing.';
}

/** undefined when the message is not in the thread. */
export function conversationRestore(input: ConversationRestoreInput): ConversationRestore | undefined {
  const at = input.entries.findIndex((entry) => entry.id === input.messageId);
  const message = input.entries[at];
  if (!message || message.kind !== 'user') return undefined;
  const entries = input.entries.slice(0, at).map((entry) => structuredClone(entry));
  const files = filesSentence(input.codeRestored);
  if (input.canFork) {
    const agentNote = editorNote(`the user went back in this conversation to before their message ${quote(message.text, MAX_QUOTE_CHARS)}. That message and everything after it are withdrawn: disregard them and their results, and continue from the point before it. ${files}`);
    return {
      route: 'fork',
      entries,
      message: message.text,
      agentNote,
      notice: `This conversation continues from before your message ${quote(message.text, 80)}, in a fork of the session: ${input.agentLabel} keeps the earlier history. With your next message it is told: ${agentNote}`,
    };
  }
  const earlier = entries.flatMap((entry) => (entry.kind === 'user' ? [quote(entry.text, MAX_QUOTE_CHARS)] : [])).slice(-MAX_EARLIER_MESSAGES);
  const asked = earlier.length > 0
    ? `Before that point the user had asked, in order: ${earlier.map((text, index) => `${index + 1}. ${text}`).join(' ')}. Your answers then are not included.`
    : 'Nothing had been asked before that point.';
  const agentNote = editorNote(`this session continues an earlier conversation that you cannot see, from a point the user went back to. ${asked} ${files}`);
  return {
    route: 'new',
    entries,
    message: message.text,
    agentNote,
    notice: `${input.agentLabel} cannot fork its sessions, so this is a new session: it has not seen the messages above. With your next message it is told: ${agentNote}`,
  };
}
