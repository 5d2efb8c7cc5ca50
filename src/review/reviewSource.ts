import type { ReviewRequest, ReviewView } from './pendingChanges';
import type { Disposable } from '../util/disposable';
import type { FeedbackStore } from './comments/reviewFeedbackState';

/** Pending agent changes as the panel sees them; the editor side implements it. */
export interface ReviewSource {
  view(): ReviewView;
  onDidChange(listener: () => void): Disposable;
  act(request: ReviewRequest): Promise<void>;
  /**
   * What the user undid since the last prompt, for a short note to the agent that made those
   * changes (`owner`: the session's key); then cleared. Other agents are not told.
   */
  takePromptNotes(owner: string): string[];
  /** Where the panel's comments not sent yet and reviewed marks are kept across window reloads; without one they are not. */
  readonly feedbackStore?: FeedbackStore;
}
