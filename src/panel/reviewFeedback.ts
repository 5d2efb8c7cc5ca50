import { MAX_COMMENTS_PER_MESSAGE, type ReviewFeedbackChange } from '../contract/reviewMessages';
import type { ReviewCommentView, ReviewFeedbackView, ReviewFileView, ReviewHunkView, ReviewView } from '../contract/reviewView';
import { assertNever } from '../util/assertNever';
import { DisposableStore, type Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import { commentContext, commentSummary, placeOf } from './reviewCommentNote';
import type { ReviewSource } from './reviewSource';

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
 */
export class ReviewFeedback implements Disposable {
  private readonly comments = new Map<string, ReviewCommentView[]>();
  private readonly reviewed = new Set<string>();
  private nextCommentId = 1;
  private readonly changed = new Emitter<void>();
  private readonly subscriptions = new DisposableStore();
  /** The feedback or the pending changes under it changed. */
  readonly onDidChange = this.changed.event;

  /** `activeConversation`: the key of the conversation in front (its tab id). */
  constructor(private readonly review: ReviewSource, private readonly activeConversation: () => string) {
    this.subscriptions.add(review.onDidChange(() => this.follow()));
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
    for (const conversation of [...this.comments.keys()]) if (!kept.has(conversation)) this.comments.delete(conversation);
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
        const now = pending.get(comment.hunkId);
        comment.pending = now !== undefined;
        if (now) comment.place = placeOf(now.hunk);
      }
    }
    this.changed.fire();
  }
}

function pendingHunks(view: ReviewView): Map<string, PendingHunk> {
  const hunks = new Map<string, PendingHunk>();
  for (const file of view.files) for (const hunk of file.hunks) hunks.set(hunk.id, { file, hunk });
  return hunks;
}
