import type { ReviewView } from '../../src/contract/reviewView';
import { button, el, icon } from '../dom';
import type { PostToHost } from '../vscodeApi';
import { originBadge, reviewRequests, type RequestReview } from './hunkView';

/** "N files changed +a −d" above the composer, with Keep all / Undo all / Review and per-file rows. */
export class ChangesBar {
  readonly element = el('section', { class: 'changes-bar', id: 'changes-bar', 'aria-label': 'Pending changes', hidden: '' });
  private expanded = false;
  private readonly requestReview: RequestReview;

  constructor(post: PostToHost) {
    this.requestReview = reviewRequests(post);
  }

  render(review: ReviewView): void {
    const { files } = review;
    const requestReview = this.requestReview;
    this.element.hidden = files.length === 0 && !review.canRedo;
    if (this.element.hidden) return;
    const added = files.reduce((sum, file) => sum + file.added, 0);
    const removed = files.reduce((sum, file) => sum + file.removed, 0);
    const toggle = el('button', { class: 'changes-summary', 'aria-expanded': String(this.expanded), title: 'Show the changed files' },
      icon(this.expanded ? 'chevron-down' : 'chevron-right'),
      files.length === 0 ? ' No pending changes' : ` ${files.length} ${files.length === 1 ? 'file' : 'files'} changed `,
      files.length === 0 ? '' : el('span', { class: 'stat-added' }, `+${added}`), ' ',
      files.length === 0 ? '' : el('span', { class: 'stat-removed' }, `−${removed}`));
    toggle.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this.render(review);
    });
    const actions = el('div', { class: 'changes-actions' });
    if (review.canRedo) actions.append(button('Undo last undo', { icon: 'redo', secondary: true, onClick: () => requestReview('redoUndo') }));
    if (files.length > 0) {
      actions.append(
        button('Review', { icon: 'diff-multiple', secondary: true, title: 'Open all pending changes in a multi-file diff', onClick: () => requestReview('openReview') }),
        button('Undo all', { icon: 'discard', secondary: true, onClick: () => requestReview('undoAll') }),
        button('Keep all', { icon: 'check-all', onClick: () => requestReview('keepAll') }));
    }
    const rows = this.expanded ? files.map((file) => {
      const name = el('a', { href: '#', class: 'change-file', title: file.path }, file.label);
      name.addEventListener('click', (event) => {
        event.preventDefault();
        requestReview('openFile', file.path);
      });
      return el('div', { class: 'change-row', 'data-path': file.path },
        el('span', { class: `change-status status-${file.status}` }, file.status === 'created' ? 'A' : file.status === 'deleted' ? 'D' : 'M'),
        name,
        el('span', { class: 'diff-stats' }, el('span', { class: 'stat-added' }, `+${file.added}`), ' ', el('span', { class: 'stat-removed' }, `−${file.removed}`)),
        originBadge(file),
        el('span', { class: 'row-actions' },
          button('', { icon: 'discard', secondary: true, title: `Undo all changes to ${file.label}`, onClick: () => requestReview('undoFile', file.path) }),
          button('', { icon: 'check', secondary: true, title: `Keep all changes to ${file.label}`, onClick: () => requestReview('keepFile', file.path) })));
    }) : [];
    this.element.replaceChildren(el('div', { class: 'changes-header' }, toggle, actions), ...rows);
  }
}
