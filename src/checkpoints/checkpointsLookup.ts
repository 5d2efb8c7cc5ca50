/**
 * Which checkpoint belongs to which user message of a conversation. A checkpoint is taken for
 * a message of one tab, but the same message shows in other conversations too:
 *   - a fork, or a conversation restored to an earlier message, holds copies of the earlier
 *     entries (same ids, same text): the checkpoint's context (a hash of the messages up to
 *     and including it) is what the copy has there;
 *   - a session opened from the agent's own history replays its messages with new ids: they
 *     are the checkpoints taken for that agent session, in order, each replayed message holding
 *     its checkpoint's text (agents may replay the editor's notes ahead of it).
 * A message of the tab's own wins over a copy; of several copies the newest.
 */
import type { Checkpoint } from './checkpointsIndex';
import { sha256 } from './checkpointsIndex';

/** A thread as far as checkpoints read it. */
export interface MessageThread {
  readonly length: number;
  entryAt(index: number): { kind: string; id: string; text?: string } | undefined;
}

export interface ConversationIdentity {
  tabId: string;
  /** The agent session the conversation is in now; null before it has one. */
  sessionId: string | null;
}

/** Messages and answers the context hash covers, ending at the message. */
const CONTEXT_ENTRIES = 6;

const normalised = (text: string) => text.trim().replace(/\s+/g, ' ');

/** The context of the user message at `index`: the last messages and answers up to it, as the thread has them. */
export function messageContext(thread: MessageThread, index: number): string {
  const texts: string[] = [];
  for (let at = index; at >= 0 && texts.length < CONTEXT_ENTRIES; at--) {
    const entry = thread.entryAt(at);
    if (entry?.kind === 'user' || entry?.kind === 'agentMessage') texts.push(`${entry.kind}:${normalised(entry.text ?? '')}`);
  }
  return sha256(Buffer.from(JSON.stringify(texts.reverse()), 'utf8'));
}

/** Whether a replayed message is the one a checkpoint was taken for: it holds the checkpoint's label. */
function replays(text: string, checkpoint: Checkpoint): boolean {
  const label = normalised(checkpoint.label.replace(/…$/, ''));
  return label.length > 0 && normalised(text).includes(label);
}

/** Finds the checkpoint of each user message of one conversation, read in order. */
class MessageMatcher {
  private readonly own = new Map<string, Checkpoint>();
  private readonly copies = new Map<string, Checkpoint[]>();
  private readonly replayed: Checkpoint[] = [];
  private nextReplayed = 0;

  constructor(checkpoints: readonly Checkpoint[], conversation: ConversationIdentity) {
    for (const checkpoint of checkpoints) {
      const messageId = checkpoint.messageId;
      if (checkpoint.kind !== 'message' || messageId === null) continue;
      if (checkpoint.tabId === conversation.tabId) this.own.set(messageId, checkpoint);
      else {
        if (checkpoint.context !== null) this.copies.set(messageId, [...(this.copies.get(messageId) ?? []), checkpoint]);
        if (conversation.sessionId !== null && checkpoint.sessionId === conversation.sessionId) this.replayed.push(checkpoint);
      }
    }
  }

  match(thread: MessageThread, index: number, entry: { id: string; text?: string }): Checkpoint | undefined {
    return this.own.get(entry.id) ?? this.copyAt(thread, index, entry.id) ?? this.replayOf(entry.text ?? '');
  }

  private copyAt(thread: MessageThread, index: number, entryId: string): Checkpoint | undefined {
    const candidates = this.copies.get(entryId);
    if (!candidates) return undefined;
    const context = messageContext(thread, index);
    return candidates.filter((checkpoint) => checkpoint.context === context).at(-1);
  }

  /** Replays keep the order of the messages: a match moves past every earlier checkpoint. */
  private replayOf(text: string): Checkpoint | undefined {
    const at = this.replayed.findIndex((checkpoint, position) => position >= this.nextReplayed && replays(text, checkpoint));
    if (at < 0) return undefined;
    this.nextReplayed = at + 1;
    return this.replayed[at];
  }
}

/** The user messages of `thread` that have a checkpoint, by entry id. */
export function messageCheckpoints(checkpoints: readonly Checkpoint[], conversation: ConversationIdentity, thread: MessageThread): Map<string, Checkpoint> {
  const matcher = new MessageMatcher(checkpoints, conversation);
  const found = new Map<string, Checkpoint>();
  for (let index = 0; index < thread.length; index++) {
    const entry = thread.entryAt(index);
    const checkpoint = entry?.kind === 'user' ? matcher.match(thread, index, entry) : undefined;
    if (entry && checkpoint) found.set(entry.id, checkpoint);
  }
  return found;
}
