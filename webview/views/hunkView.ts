import { MAX_COMMENTS_PER_MESSAGE } from '../../src/contract/reviewLimits';
import type { ReviewFeedbackChange } from '../../src/contract/reviewMessages';
import { placeText, progressText, type HunkCounts } from '../../src/contract/reviewProgress';
import { changeWords, type ReviewAction, type ReviewCommentView, type ReviewFileView, type ReviewHunkView } from '../../src/contract/reviewView';
import { el, icon, iconButton } from '../dom';
import type { FeedbackIndex, ReviewUi } from '../reviewStore';
import type { PostToHost } from '../vscodeApi';
import { languageOfPath, renderDiffLines, type NumberedLine } from './diffLines';

/** Asks the host for a review action on everything, a file, or one hunk. */
export type RequestReview = (action: ReviewAction, path?: string | null, hunkId?: string | null) => void;

export function reviewRequests(post: PostToHost): RequestReview {
  return (action, path = null, hunkId = null) => post({ type: 'reviewAction', action, path, hunkId });
}

/** What drawing a hunk takes: the host, the feedback shown, and the surface it is drawn in. */
export interface HunkContext {
  post: PostToHost;
  feedback: FeedbackIndex;
  ui: ReviewUi;
  /** Which drawing this is (a card's tool call id, the changes bar): each has its own comment boxes. */
  surface: string;
}

/** Where a change came from; `compact` (a narrow row) shows the icon, with the words in its tooltip and label. */
export function originBadge(file: ReviewFileView, compact = false): HTMLElement {
  const why = file.origin === 'editor'
    ? 'The agent asked Tandem to write this file (fs/write_text_file): the change is an undoable edit in the editor.'
    : 'The agent changed this file on disk itself; Tandem compared the file before and after.';
  const label = changeWords(file.origin, file.status === 'deleted');
  return compact
    ? el('span', { class: `origin-badge origin-${file.origin}`, title: `${label}: ${why}`, role: 'img', 'aria-label': label }, icon(file.origin === 'editor' ? 'edit' : 'save'))
    : el('span', { class: `origin-badge origin-${file.origin}`, title: why }, icon(file.origin === 'editor' ? 'edit' : 'save'), ` ${label}`);
}

export function sendFeedback(post: PostToHost, change: ReviewFeedbackChange): void {
  post({ type: 'reviewFeedback', change });
}

/** A "Reviewed" toggle for a hunk or (`hunkId` null) a whole file; `text` (null: icon only, named `name`) says what it shows. */
function reviewedToggle(context: HunkContext, file: ReviewFileView, hunkId: string | null, reviewed: boolean, text: string | null, title: string): HTMLElement {
  const toggle = text === null
    ? el('button', { type: 'button', class: 'icon-action review-toggle', 'aria-pressed': String(reviewed), 'aria-label': 'Reviewed', title }, icon(reviewed ? 'pass-filled' : 'circle-large-outline'))
    : el('button', { type: 'button', class: 'icon-toggle review-toggle', 'aria-pressed': String(reviewed), title },
      icon(reviewed ? 'pass-filled' : 'circle-large-outline'), el('span', { class: 'review-count' }, text));
  toggle.addEventListener('click', () => sendFeedback(context.post, { kind: 'markReviewed', path: file.path, hunkId, reviewed: !reviewed }));
  return context.ui.keepFocus(`${context.surface}|${file.path}|${hunkId ?? 'file'}|reviewed`, toggle);
}

/** A file's count ("1/3 reviewed") as its toggle: pressed when every hunk is reviewed, pressing it marks them all (or none). */
export function fileReviewToggle(context: HunkContext, file: ReviewFileView, counts: HunkCounts): HTMLElement {
  const all = counts.hunks > 0 && counts.reviewed === counts.hunks;
  const title = `${progressText(counts)}. ${all ? `Press to unmark every change to ${file.label}` : `Mark every change to ${file.label} reviewed`}`;
  return reviewedToggle(context, file, null, all, `${counts.reviewed}/${counts.hunks} reviewed`, title);
}

/** A pending hunk's lines, numbered as before (removed) and after (added) the change. */
function hunkLines(hunk: ReviewHunkView): NumberedLine[] {
  const oldStart = hunk.baseStart ?? null;
  return [
    ...hunk.removed.map((text, index): NumberedLine => ({ kind: 'removed', old: oldStart === null ? null : oldStart + 1 + index, new: null, text })),
    ...hunk.added.map((text, index): NumberedLine => ({ kind: 'added', old: null, new: hunk.currentStart + 1 + index, text })),
  ];
}

/**
 * One pending hunk: a single row of icon buttons (Reviewed, Comment, Keep, Undo; their words on
 * hover and focus) over its numbered lines, and its comments under it.
 */
export function renderHunk(file: ReviewFileView, hunk: ReviewHunkView, context: HunkContext): HTMLElement {
  const requestReview = reviewRequests(context.post);
  const where = `line ${hunk.currentStart + 1}`;
  const body = renderDiffLines(hunkLines(hunk), languageOfPath(file.path), `Change to ${file.label} at ${where}`);
  const key = `${context.surface}|${file.path}|${hunk.id}`;
  const slot = el('div', { class: 'comment-slot' });
  const comments = context.feedback.commentsOn(hunk.id);
  const full = context.feedback.feedback.comments.length >= MAX_COMMENTS_PER_MESSAGE;
  const comment = context.ui.keepFocus(`${key}|comment`, iconButton('Comment', 'comment', {
    title: full ? `One message takes at most ${MAX_COMMENTS_PER_MESSAGE} comments: send these first` : `Comment on this change (${where}) for the agent`,
    onClick: () => {
      if (!full) openBox(slot, context, `${key}|new`, { label: `Comment for the agent on ${file.label} ${where}`, text: '', back: `${key}|comment`, save: (text) => sendFeedback(context.post, { kind: 'addComment', path: file.path, hunkId: hunk.id, text }) });
    },
  }));
  const open = context.ui.draft(`${key}|new`);
  if (open) slot.append(context.ui.keepFocus(`${key}|new`, open));
  return el('div', { class: `hunk${context.feedback.isReviewed(hunk.id) ? ' reviewed' : ''}`, 'data-hunk-id': hunk.id },
    el('div', { class: 'hunk-header' },
      el('span', { class: 'hunk-where' }, where),
      el('span', { class: 'hunk-actions', role: 'group', 'aria-label': `Change at ${where}` },
        hunkReviewedToggle(context, file, hunk, where),
        comment,
        iconButton('Undo', 'discard', { title: `Undo this change (${where})`, onClick: () => requestReview('undoHunk', file.path, hunk.id) }),
        iconButton('Keep', 'check', { title: `Keep this change (${where})`, className: 'primary', onClick: () => requestReview('keepHunk', file.path, hunk.id) }))),
    body,
    ...(comments.length > 0 ? [el('div', { class: 'hunk-comments' }, ...comments.map((item) => renderComment(item, context, key)))] : []),
    slot);
}

function hunkReviewedToggle(context: HunkContext, file: ReviewFileView, hunk: ReviewHunkView, where: string): HTMLElement {
  const reviewed = context.feedback.isReviewed(hunk.id);
  return reviewedToggle(context, file, hunk.id, reviewed, null, reviewed ? `Marked reviewed (${where}). Press to unmark.` : `Mark this change (${where}) reviewed`);
}

/** A comment under its hunk: the text, Edit (in place) and Remove. */
function renderComment(comment: ReviewCommentView, context: HunkContext, hunkKey: string): HTMLElement {
  const key = `${hunkKey}|${comment.id}`;
  const row = el('div', { class: 'hunk-comment', 'data-comment-id': comment.id }, icon('comment'));
  const editing = context.ui.draft(`${key}|edit`);
  if (editing) {
    row.append(context.ui.keepFocus(`${key}|edit`, editing));
    return row;
  }
  const edit = context.ui.keepFocus(`${key}|editButton`, iconButton('Edit comment', 'edit', {
    title: 'Edit this comment',
    onClick: () => openBox(row, context, `${key}|edit`, {
      label: `Edit the comment on ${comment.label} ${placeText(comment.place)}`, text: comment.text, back: `${key}|editButton`, replace: true,
      save: (text) => sendFeedback(context.post, { kind: 'editComment', commentId: comment.id, text }),
      closed: (holder) => holder?.replaceWith(renderComment(comment, context, hunkKey)),
    }),
  }));
  row.append(el('span', { class: 'comment-text' }, comment.text), el('span', { class: 'comment-actions' }, edit,
    iconButton('Remove comment', 'trash', { title: 'Remove this comment', onClick: () => {
      sendFeedback(context.post, { kind: 'removeComment', commentId: comment.id });
      // The row goes with the comment: the keyboard stays on the hunk.
      context.ui.focus(`${hunkKey}|comment`);
    } })));
  return row;
}

interface BoxOptions {
  label: string;
  text: string;
  /** The control that opened the box: focus goes back to it when the box closes. */
  back: string;
  /** The box takes the place of the row's content (editing) instead of being added to it. */
  replace?: boolean;
  save(text: string): void;
  /** The box closed; `holder` is where it was last drawn. */
  closed?(holder: HTMLElement | null): void;
}

/** A small comment box: Enter saves, Shift+Enter adds a line, Escape cancels. */
function openBox(container: HTMLElement, context: HunkContext, key: string, options: BoxOptions): void {
  const open = context.ui.draft(key);
  if (open?.isConnected) {
    open.focus();
    return;
  }
  const box = el('textarea', { class: 'comment-box', rows: '2', 'aria-label': options.label, placeholder: 'Comment for the agent: Enter saves, Shift+Enter adds a line, Escape cancels' });
  box.value = options.text;
  const close = () => {
    context.ui.closeDraft(key);
    const holder = box.parentElement;
    box.remove();
    options.closed?.(holder);
    context.ui.focus(options.back);
  };
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      const text = box.value.trim();
      if (text && text !== options.text) options.save(text);
      close();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  });
  context.ui.openDraft(key, box);
  if (options.replace) container.replaceChildren(icon('comment'));
  container.append(context.ui.keepFocus(key, box));
  box.focus();
}

/** A file's pending hunks, as shown in an edit card. */
export function renderPendingFile(file: ReviewFileView, context: HunkContext, counts: HunkCounts): HTMLElement {
  return el('div', { class: 'tool-diff pending', 'data-path': file.path },
    el('div', { class: 'diff-path' }, icon('diff'), ` ${file.label}`, el('span', { class: 'diff-stats' }, ` +${file.added} −${file.removed}`), originBadge(file),
      fileReviewToggle(context, file, counts)),
    ...file.hunks.map((hunk) => renderHunk(file, hunk, context)));
}
