import type { ThreadEntry } from '../../src/contract/viewModel';
import { el, icon, spinner } from '../dom';

/** Reads and searches that need nothing from the user fold into one summary row when they come in a row. */
function groupable(entry: ThreadEntry): boolean {
  return entry.kind === 'toolCall' && (entry.tool.toolKind === 'read' || entry.tool.toolKind === 'search') && entry.tool.permission === null;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function refreshGroup(group: HTMLElement): void {
  const rows = [...group.querySelectorAll<HTMLElement>(':scope > .tool-group-body > [data-groupable]')];
  const cards = rows.map((row) => row.querySelector<HTMLElement>('.tool-card'));
  const reads = cards.filter((card) => card?.classList.contains('kind-read')).length;
  const searches = cards.length - reads;
  const running = cards.filter((card) => card?.classList.contains('status-in_progress') || card?.classList.contains('status-pending')).length;
  const failed = cards.filter((card) => card?.classList.contains('status-failed')).length;
  const latest = cards[cards.length - 1]?.querySelector('.tool-title')?.textContent ?? '';
  const parts = [reads > 0 ? `Read ${plural(reads, 'file', 'files')}` : null, searches > 0 ? plural(searches, 'search', 'searches') : null].filter(Boolean).join(', ');
  const summary = group.querySelector(':scope > summary') as HTMLElement;
  summary.replaceChildren(
    running > 0 ? spinner('loading') : icon('search'),
    el('span', { class: 'tool-group-count' }, parts),
    failed > 0 ? el('span', { class: 'tool-group-failed' }, ` (${failed} failed)`) : '',
    el('span', { class: 'tool-group-latest', title: latest }, latest));
  group.dataset.count = String(cards.length);
}

/** Whether a row for this entry joins the container's last row: a read or search right after another one, or after a group of them. */
export function joinsGroup(container: HTMLElement, entry: ThreadEntry): boolean {
  const last = container.lastElementChild as HTMLElement | null;
  return groupable(entry) && (last?.classList.contains('tool-group') === true || last?.dataset.groupable === 'true');
}

/**
 * Places a thread row: one that joins the last row (see joinsGroup) goes into their group, so
 * long turns stay readable; anything else is appended as it is.
 */
export function placeRow(container: HTMLElement, element: HTMLElement, entry: ThreadEntry): void {
  if (groupable(entry)) element.dataset.groupable = 'true';
  const last = container.lastElementChild as HTMLElement | null;
  if (!last || !joinsGroup(container, entry)) {
    container.append(element);
    return;
  }
  if (last.classList.contains('tool-group')) {
    last.querySelector(':scope > .tool-group-body')?.append(element);
    refreshGroup(last);
    return;
  }
  const group = el('details', { class: 'tool-group' }, el('summary', { class: 'tool-group-summary' }), el('div', { class: 'tool-group-body' }));
  last.replaceWith(group);
  group.querySelector(':scope > .tool-group-body')?.append(last, element);
  refreshGroup(group);
}

/** A row was re-rendered in place: keep its group's summary right, and open the group if it needs the user. */
export function rowUpdated(element: HTMLElement, entry: ThreadEntry): void {
  const group = element.parentElement?.closest<HTMLDetailsElement>('details.tool-group');
  if (groupable(entry) || group) element.dataset.groupable = 'true';
  if (!group) return;
  if (entry.kind === 'toolCall' && entry.tool.permission) group.open = true;
  refreshGroup(group);
}
