import { MAX_COMMENTS_PER_MESSAGE } from './commentLimits';
import type { ReviewFeedbackChange } from './feedbackChange';
import type { ReviewCommentView, ReviewFeedbackView, ReviewFileView, ReviewHunkView, ReviewView } from '../pendingChanges';
import { assertNever } from '../../util/assertNever';
import { DisposableStore, type Disposable } from '../../util/disposable';
import { Emitter } from '../../util/emitter';
import { commentContext, commentSummary, placeOf } from './reviewCommentNote';
import { FEEDBACK_STATE_VERSION, readFeedbackState, restoredComment, samePlace, type ReviewFeedbackState } from './reviewFeedbackState';
import type { ReviewSource } from '../reviewSource';

/** The comments a prompt takes along: the block for the agent, and the line the thread shows. */
export interface PromptComments {
  context: string;
  summary: string;
}

interface PendingHunk {
  file: ReviewFileView;
  hunk: ReviewHunkView;
}

/**
 * What the user tells the agent about its pending changes besides keep and undo, and how far
 * they got: comments on hunks, kept per conversation (each goes to that conversation's agent
 * with its next prompt, then is cleared), and reviewed marks on hunks, one set for the
 * workspace's pending changes like the changes themselves. Both follow the review source:
 * hunk ids are stable while a hunk is unchanged, so a mark or comment holds to its id; a hunk
 * that is kept, undone or changed (a new id) drops its mark, and its comments stay with their
 * file and lines as last seen, saying so.
 *
 * The panel acts on it through `apply`; the editor (a CodeLens, a command) through the same
 * methods, naming no conversation: the one in front is meant.
 *
 * Where the review source has a store, both survive a window reload: what comes back is matched
 * to the pending hunks again by content (see reviewFeedbackState.ts); a mark whose hunk is gone
 * is dropped, a comment whose hunk is gone stays with its last place, never on another hunk.
 */
export class ReviewFeedback implements Disposable {
  private readonly comments = new Map<string, ReviewCommentView[]>();
  private readonly reviewed = new Set<string>();
  /** Comments whose hunk was gone when they came back from storage: they never follow a hunk again. */
  private readonly detached = new Set<string>();
  /** Conversations that were open at some point: only those are closed, not those still being restored. */
  private readonly seen = new Set<string>();
  private nextCommentId = 1;
  private readonly changed = new Emitter<void>();
  private readonly subscriptions = new DisposableStore();
  /** The feedback or the pending changes under it changed. */
  readonly onDidChange = this.changed.event;

  /** `activeConversation`: the key of the conversation in front (its tab id). */
  constructor(private readonly review: ReviewSource, private readonly activeConversation: () => string) {
    this.restore(readFeedbackState(review.feedbackStore?.read()));
    this.subscriptions.add(review.onDidChange(() => this.follow()));
    const store = review.feedbackStore;
    if (store) this.subscriptions.add(this.onDidChange(() => store.write(this.stored())));
  }

  /** The pending changes with `conversation`'s feedback, as the panel shows them. */
  view(conversation = this.activeConversation()): ReviewView {
    return { ...this.review.view(), feedback: this.feedbackView(conversation) };
  }

  /** False when the hunk is not pending (any more) or the conversation has all the comments one message can take. */
  addComment(path: string, hunkId: string, text: string, conversation = this.activeConversation()): boolean {
    const target = pendingHunks(this.review.view()).get(hunkId);
    const list = this.comments.get(conversation) ?? [];
    if (!target || target.file.path !== path || list.length >= MAX_COMMENTS_PER_MESSAGE) return false;
    list.push({ id: `c${this.nextCommentId++}`, path, label: target.file.label, hunkId, text, place: placeOf(target.hunk), pending: true });
    this.comments.set(conversation, list);
    this.changed.fire();
    return true;
  }

  editComment(commentId: string, text: string, conversation = this.activeConversation()): void {
    const comment = this.comments.get(conversation)?.find((candidate) => candidate.id === commentId);
    if (!comment || comment.text === text) return;
    comment.text = text;
    this.changed.fire();
  }

  removeComment(commentId: string, conversation = this.activeConversation()): void {
    const list = this.comments.get(conversation) ?? [];
    const left = list.filter((comment) => comment.id !== commentId);
    if (left.length === list.length) return;
    this.comments.set(conversation, left);
    this.changed.fire();
  }

  /** `hunkId` null: every hunk the file has pending now (a hunk that comes later is not reviewed yet). */
  setReviewed(path: string, hunkId: string | null, reviewed: boolean): void {
    const file = this.review.view().files.find((candidate) => candidate.path === path);
    const ids = (file?.hunks ?? []).map((hunk) => hunk.id).filter((id) => hunkId === null || id === hunkId);
    const before = this.reviewed.size;
    for (const id of ids) {
      if (reviewed) this.reviewed.add(id);
      else this.reviewed.delete(id);
    }
    if (this.reviewed.size !== before) this.changed.fire();
  }

  /** Keeps every hunk marked reviewed: a file whose hunks all are at once, others hunk by hunk. */
  async keepReviewed(): Promise<void> {
    for (const file of this.review.view().files) {
      const marked = file.hunks.filter((hunk) => this.reviewed.has(hunk.id));
      if (marked.length === 0) continue;
      if (marked.length === file.hunks.length) {
        await this.review.act({ action: 'keepFile', path: file.path, hunkId: null });
        continue;
      }
      for (const hunk of marked) await this.review.act({ action: 'keepHunk', path: file.path, hunkId: hunk.id });
    }
  }

  /** The panel's intents. */
  apply(change: ReviewFeedbackChange): Promise<void> | void {
    switch (change.kind) {
      case 'addComment':
        this.addComment(change.path, change.hunkId, change.text);
        return;
      case 'editComment':
        return this.editComment(change.commentId, change.text);
      case 'removeComment':
        return this.removeComment(change.commentId);
      case 'markReviewed':
        return this.setReviewed(change.path, change.hunkId, change.reviewed);
      case 'keepReviewed':
        return this.keepReviewed();
      default:
        return assertNever(change, 'review feedback');
    }
  }

  /** `conversation`'s comments for its next prompt, then cleared: each reaches the agent once. */
  takeForPrompt(conversation: string): PromptComments | null {
    const list = this.comments.get(conversation) ?? [];
    if (list.length === 0) return null;
    this.comments.delete(conversation);
    this.changed.fire();
    return { context: commentContext(list), summary: commentSummary(list) };
  }

  /** Comments of conversations that were closed go with them. */
  keepConversations(open: readonly string[]): void {
    const kept = new Set(open);
    const closed = [...this.comments.keys()].filter((conversation) => this.seen.has(conversation) && !kept.has(conversation));
    for (const conversation of closed) this.comments.delete(conversation);
    for (const conversation of open) this.seen.add(conversation);
    if (closed.length > 0) this.changed.fire();
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.changed.dispose();
  }

  private feedbackView(conversation: string): ReviewFeedbackView {
    const comments = (this.comments.get(conversation) ?? []).map((comment) => ({ ...comment, place: { ...comment.place } }));
    return { comments, reviewedHunkIds: [...this.reviewed] };
  }

  /** The pending changes moved: comments follow their hunks, marks of hunks that are gone go. */
  private follow(): void {
    const pending = pendingHunks(this.review.view());
    for (const id of [...this.reviewed]) if (!pending.has(id)) this.reviewed.delete(id);
    for (const list of this.comments.values()) {
      for (const comment of list) {
        if (this.detached.has(comment.id)) continue;
        const now = pending.get(comment.hunkId);
        comment.pending = now !== undefined;
        if (now) comment.place = placeOf(now.hunk);
      }
    }
    this.changed.fire();
  }

  /**
   * What the store keeps: each conversation's comments (of conversations this window has seen
   * open, once it has seen any: a restored one that did not come back goes), and the marks with
   * their hunk's place.
   */
  private stored(): ReviewFeedbackState {
    const pending = pendingHunks(this.review.view());
    const comments = [...this.comments].filter(([conversation, list]) => list.length > 0 && (this.seen.size === 0 || this.seen.has(conversation)));
    const reviewed = [...this.reviewed].flatMap((hunkId) => {
      const at = pending.get(hunkId);
      return at ? [{ hunkId, path: at.file.path, place: placeOf(at.hunk) }] : [];
    });
    return { version: FEEDBACK_STATE_VERSION, nextCommentId: this.nextCommentId, comments, reviewed };
  }

  private restore(state: ReviewFeedbackState | null): void {
    if (!state) return;
    const pending = pendingHunks(this.review.view());
    for (const [conversation, list] of state.comments) {
      const comments = list.map((stored) => {
        const now = pending.get(stored.hunkId);
        const comment = restoredComment(stored, now && placeOf(now.hunk), now?.file.path);
        if (!comment.pending) this.detached.add(comment.id);
        return comment;
      });
      this.comments.set(conversation, comments);
    }
    for (const mark of state.reviewed) {
      const now = pending.get(mark.hunkId);
      if (now && now.file.path === mark.path && samePlace(mark.place, placeOf(now.hunk))) this.reviewed.add(mark.hunkId);
    }
    const ids = state.comments.flatMap(([, list]) => list.map((comment) => Number(/^c(\d+)$/.exec(comment.id)?.[1]) || 0));
    this.nextCommentId = Math.max(state.nextCommentId, ...ids.map((id) => id + 1));
  }
}

function pendingHunks(view: ReviewView): Map<string, PendingHunk> {
  const hunks = new Map<string, PendingHunk>();
  for (const file of view.files) for (const hunk of file.hunks) hunks.set(hunk.id, { file, hunk });
  return hunks;
}
