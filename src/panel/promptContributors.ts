import type { Checkpoint } from '../checkpoints/checkpoints';
import type { CheckpointPanel } from '../checkpoints/panel/checkpointPanel';
import type { ReviewFeedback } from '../review/comments/reviewFeedback';
import type { ReviewSource } from '../review/reviewSource';
import type { SessionTab } from './sessionTab';

/** What a part adds to one message: notes for the agent, and what it does once the message is in the thread. */
export interface PromptTake {
  notes: readonly string[];
  sent?(): void;
}

/**
 * The extension point of the prompt path: a part that goes with every message the user sends
 * (review's undo notes, checkpoints, hunk comments). The dispatcher knows none of them by name:
 * each prepares before anything is taken, then gives its notes, in the order they were plugged in.
 */
export interface PromptContributor {
  /** Runs before any part gives its notes (a checkpoint of the files as the agent will find them). */
  prepare?(tab: SessionTab, text: string): Promise<void>;
  /**
   * Taken once per message; what is taken is not given again. `withNotes` is false for a slash
   * command: it must reach the agent exactly as typed, so notes wait for the next message.
   */
  take(tab: SessionTab, withNotes: boolean): PromptTake;
}

/** What the user undid of this conversation's changes since its last message. */
export function reviewUndoNotes(review: ReviewSource): PromptContributor {
  return { take: (tab, withNotes) => ({ notes: withNotes ? review.takePromptNotes(tab.session.key) : [] }) };
}

/** A checkpoint per message, and the notes of a conversation continued from one. */
export function checkpointPrompts(checkpoints: CheckpointPanel): PromptContributor {
  const prepared = new WeakMap<SessionTab, Checkpoint>();
  return {
    prepare: async (tab, text) => {
      prepared.set(tab, await checkpoints.beforePrompt(tab, text));
    },
    take: (tab, withNotes) => {
      const checkpoint = prepared.get(tab);
      prepared.delete(tab);
      return { notes: withNotes ? checkpoints.takePromptNotes(tab.session.key) : [], ...(checkpoint ? { sent: () => checkpoints.sent(tab, checkpoint) } : {}) };
    },
  };
}

/** The hunk comments the user wrote for the agent, shown under the message they went with. */
export function reviewCommentPrompts(feedback: ReviewFeedback): PromptContributor {
  return {
    take: (tab, withNotes) => {
      const comments = withNotes ? feedback.takeForPrompt(tab.id) : null;
      if (!comments) return { notes: [] };
      return { notes: [comments.context], sent: () => tab.session.thread.addNotice('info', comments.summary) };
    },
  };
}
