import { commentCountText, placeText, progressText, reviewProgress, type HunkCounts } from '../../src/contract/reviewProgress';
import { emptyReview, type ReviewCommentView, type ReviewFileView, type ReviewView } from '../../src/contract/reviewView';
import { el, icon, iconButton } from '../dom';
import { FeedbackIndex, ReviewUi } from '../reviewStore';
import type { PostToHost } from '../vscodeApi';
import { fileReviewToggle, originBadge, renderHunk, reviewRequests, sendFeedback, type HunkContext, type RequestReview } from './hunkView';

const SURFACE = 'changes-bar';

/**
 * One row above the composer: "N files changed +a −d · R of H hunks reviewed" and icon buttons for
 * Review, Undo all and Keep all; per-file rows that open onto their hunks, and the comments that will go with the next
 * message.
 */
export class ChangesBar {
  readonly element = el('section', { class: 'changes-bar', id: 'changes-bar', 'aria-label': 'Pending changes', hidden: '' });
  private expanded = false;
  private readonly openFiles = new Set<string>();
  private readonly ui = new ReviewUi();
  private readonly requestReview: RequestReview;
  private current: ReviewView = emptyReview;
  /** The user hid the Redo row; it comes back when the changes do. */
  private redoDismissed = false;

  constructor(private readonly post: PostToHost) {
    this.requestReview = reviewRequests(post);
  }

  render(review: ReviewView): void {
    if (this.redoDismissed && (review.files.length > 0 || !review.canRedo)) this.redoDismissed = false;
    this.current = review;
    const { files } = review;
    const feedback = new FeedbackIndex(review.feedback);
    const { comments } = feedback.feedback;
    const redoOnly = files.length === 0 && review.canRedo && !this.redoDismissed;
    this.element.hidden = files.length === 0 && !redoOnly && comments.length === 0;
    if (this.element.hidden) return;
    const progress = reviewProgress(review);
    const context: HunkContext = { post: this.post, feedback, ui: this.ui, surface: SURFACE };
    const rows = this.expanded ? files.map((file) => this.fileRow(file, context, progress.files.get(file.path) ?? { reviewed: 0, hunks: 0 })) : [];
    const header = files.length > 0 ? [el('div', { class: 'changes-header' }, this.summary(review, progress), this.actions(review, progress.reviewed))]
      : redoOnly ? [this.redoRow()] : [];
    this.element.replaceChildren(...header, ...rows, ...this.commentList(comments));
    this.ui.prune();
  }

  /** Nothing pending, but an undo can be brought back: one row with Redo, which the user can dismiss. */
  private redoRow(): HTMLElement {
    return el('div', { class: 'changes-header' },
      el('span', { class: 'changes-note' }, icon('history'), ' Undone changes can be brought back'),
      el('span', { class: 'changes-actions' },
        this.redoButton(),
        iconButton('Dismiss', 'close', { title: 'Hide this until something changes again', onClick: () => {
          this.redoDismissed = true;
          this.render(this.current);
        } })));
  }

  private redoButton(): HTMLElement {
    return iconButton('Redo', 'redo', { title: 'Bring back the agent change you last undid', onClick: () => this.requestReview('redoUndo') });
  }

  private summary(review: ReviewView, progress: HunkCounts): HTMLElement {
    const { files } = review;
    const added = files.reduce((sum, file) => sum + file.added, 0);
    const removed = files.reduce((sum, file) => sum + file.removed, 0);
    const toggle = this.ui.keepFocus(`${SURFACE}|summary`, el('button', { type: 'button', class: 'changes-summary', 'aria-expanded': String(this.expanded), title: 'Show the changed files' },
      icon(this.expanded ? 'chevron-down' : 'chevron-right'),
      el('span', { class: 'changes-summary-text' },
        el('span', { class: 'changes-count' }, `${files.length} ${files.length === 1 ? 'file' : 'files'} changed`), ' ',
        el('span', { class: 'changes-stats' }, el('span', { class: 'stat-added' }, `+${added}`), ' ', el('span', { class: 'stat-removed' }, `−${removed}`)), ' ',
        el('span', { class: 'review-progress' }, `· ${progressText(progress)}`))));
    toggle.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this.render(this.current);
    });
    return toggle;
  }

  /**
   * Icon buttons anchored at the row's right end, always in the same order: those that come and go
   * (Redo, Keep reviewed) are at the left of the group, so a click never moves the others.
   */
  private actions(review: ReviewView, reviewed: number): HTMLElement {
    const requestReview = this.requestReview;
    const actions = el('span', { class: 'changes-actions', role: 'group', 'aria-label': 'All pending changes' });
    if (review.canRedo) actions.append(this.redoButton());
    if (reviewed > 0) {
      actions.append(iconButton('Keep reviewed', 'pass', { title: `Keep the ${reviewed} ${reviewed === 1 ? 'change' : 'changes'} marked reviewed`,
        onClick: () => sendFeedback(this.post, { kind: 'keepReviewed' }) }));
    }
    actions.append(
      iconButton('Review', 'diff-multiple', { title: 'Review: open all pending changes in a multi-file diff', onClick: () => requestReview('openReview') }),
      iconButton('Undo all', 'discard', { title: 'Undo all pending changes', onClick: () => requestReview('undoAll') }),
      iconButton('Keep all', 'check-all', { title: 'Keep all pending changes', className: 'primary', onClick: () => requestReview('keepAll') }));
    return actions;
  }

  /** A file's row; opened, its hunks follow it, each with Reviewed and Comment as in the cards. */
  private fileRow(file: ReviewFileView, context: HunkContext, counts: HunkCounts): HTMLElement {
    const requestReview = this.requestReview;
    const open = this.openFiles.has(file.path);
    const name = el('a', { href: '#', class: 'change-file', title: file.path }, file.label);
    name.addEventListener('click', (event) => {
      event.preventDefault();
      requestReview('openFile', file.path);
    });
    const disclose = this.ui.keepFocus(`${SURFACE}|${file.path}|open`, el('button', { class: 'icon-toggle row-open', 'aria-expanded': String(open), title: `${open ? 'Hide' : 'Show'} the changes to ${file.label}`, 'aria-label': `Changes to ${file.label}` },
      icon(open ? 'chevron-down' : 'chevron-right')));
    disclose.addEventListener('click', () => {
      if (open) this.openFiles.delete(file.path);
      else this.openFiles.add(file.path);
      this.render(this.current);
    });
    const row = el('div', { class: 'change-row', 'data-path': file.path },
      disclose,
      el('span', { class: `change-status status-${file.status}` }, file.status === 'created' ? 'A' : file.status === 'deleted' ? 'D' : 'M'),
      name,
      el('span', { class: 'diff-stats' }, el('span', { class: 'stat-added' }, `+${file.added}`), ' ', el('span', { class: 'stat-removed' }, `−${file.removed}`)),
      originBadge(file, true),
      el('span', { class: 'row-actions' },
        fileReviewToggle(context, file, counts),
        iconButton(`Undo ${file.label}`, 'discard', { title: `Undo all changes to ${file.label}`, onClick: () => requestReview('undoFile', file.path) }),
        iconButton(`Keep ${file.label}`, 'check', { title: `Keep all changes to ${file.label}`, onClick: () => requestReview('keepFile', file.path) })));
    if (!open) return row;
    return el('div', { class: 'change-group' }, row, el('div', { class: 'change-hunks' }, ...file.hunks.map((hunk) => renderHunk(file, hunk, context))));
  }

  /** What the next message will take along, each removable. */
  private commentList(comments: readonly ReviewCommentView[]): HTMLElement[] {
    if (comments.length === 0) return [];
    return [el('div', { class: 'pending-comments', id: 'pending-comments', role: 'group', 'aria-label': 'Comments for the agent' },
      el('div', { class: 'pending-comments-title' }, icon('comment'), ` ${commentCountText(comments.length)} will be sent with your next message`),
      ...comments.map((comment) => el('div', { class: 'pending-comment', 'data-comment-id': comment.id },
        el('span', { class: 'pending-comment-place', title: comment.pending ? comment.path : `${comment.path}: this change is no longer pending (kept, undone or edited since); the lines are as last seen` },
          `${comment.label} ${placeText(comment.place)}${comment.pending ? '' : ' (no longer pending)'}`),
        el('span', { class: 'pending-comment-text', title: comment.text }, comment.text),
        iconButton('Remove comment', 'close', { title: `Remove this comment (${comment.label} ${placeText(comment.place)})`,
          onClick: () => sendFeedback(this.post, { kind: 'removeComment', commentId: comment.id }) }))))];
  }
}
