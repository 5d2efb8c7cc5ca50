import type { ReviewAction, ReviewFileView, ReviewHunkView } from '../../src/contract/reviewView';
import { button, el, icon } from '../dom';
import type { PostToHost } from '../vscodeApi';

/** Asks the host for a review action on everything, a file, or one hunk. */
export type RequestReview = (action: ReviewAction, path?: string | null, hunkId?: string | null) => void;

export function reviewRequests(post: PostToHost): RequestReview {
  return (action, path = null, hunkId = null) => post({ type: 'reviewAction', action, path, hunkId });
}

export const originLabels = { editor: 'through the editor', disk: 'written to disk by the agent' } as const;

export function originBadge(file: ReviewFileView): HTMLElement {
  return el('span', { class: `origin-badge origin-${file.origin}`, title: file.origin === 'editor'
    ? 'The agent asked Tandem to write this file (fs/write_text_file): the change is an undoable edit in the editor.'
    : 'The agent changed this file on disk itself; Tandem compared the file before and after.' },
  icon(file.origin === 'editor' ? 'edit' : 'save'), ` ${originLabels[file.origin]}`);
}

/** One pending hunk with its own Keep and Undo. */
export function renderHunk(file: ReviewFileView, hunk: ReviewHunkView, requestReview: RequestReview): HTMLElement {
  const body = el('pre', { class: 'diff-body' });
  for (const line of hunk.removed) body.append(el('div', { class: 'diff-line diff-removed' }, `- ${line}`));
  for (const line of hunk.added) body.append(el('div', { class: 'diff-line diff-added' }, `+ ${line}`));
  const where = `line ${hunk.currentStart + 1}`;
  return el('div', { class: 'hunk', 'data-hunk-id': hunk.id },
    el('div', { class: 'hunk-header' },
      el('span', { class: 'hunk-where' }, where),
      el('span', { class: 'hunk-actions' },
        button('Keep', { icon: 'check', title: `Keep this change (${where})`, onClick: () => requestReview('keepHunk', file.path, hunk.id) }),
        button('Undo', { icon: 'discard', secondary: true, title: `Undo this change (${where})`, onClick: () => requestReview('undoHunk', file.path, hunk.id) }))),
    body);
}

/** A file's pending hunks, as shown in an edit card. */
export function renderPendingFile(file: ReviewFileView, requestReview: RequestReview): HTMLElement {
  return el('div', { class: 'tool-diff pending', 'data-path': file.path },
    el('div', { class: 'diff-path' }, icon('diff'), ` ${file.label}`, el('span', { class: 'diff-stats' }, ` +${file.added} −${file.removed}`), originBadge(file)),
    ...file.hunks.map((hunk) => renderHunk(file, hunk, requestReview)));
}
