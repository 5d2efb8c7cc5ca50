import type { PlanItemView, ThreadDelta, ThreadEntry } from '../../src/contract/viewModel';
import { el, icon } from '../dom';

const planIcons = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', completed: 'pass-filled' } as const;

function currentText(current: PlanItemView | undefined, stopped: boolean): string {
  if (!current) return 'All steps done';
  return stopped ? `Stopped at: ${current.content}` : current.content;
}

/**
 * The current turn's plan as a compact strip above the composer ("3/7" and the current step)
 * that expands to the whole list. The plan entry itself stays in the thread; a new user
 * message starts a turn without a plan until the agent sends one.
 */
export class PlanStrip {
  readonly element = el('section', { class: 'plan-strip', id: 'plan-strip', 'aria-label': 'Plan', hidden: '' });
  private items: PlanItemView[] | null = null;
  private planEntryId: string | null = null;
  /** The plan's turn was stopped, failed or cut off by a reload: no step is current any more. */
  private stopped = false;
  private expanded = false;

  reset(entries: readonly ThreadEntry[]): void {
    this.items = null;
    this.planEntryId = null;
    for (const entry of entries) this.observe(entry);
    this.render();
  }

  apply(deltas: readonly ThreadDelta[]): void {
    let changed = false;
    for (const delta of deltas) {
      if (delta.type === 'threadCleared') {
        this.items = null;
        changed = true;
      } else if (delta.type === 'entryAdded' || delta.type === 'entryUpdated') {
        changed = this.observe(delta.entry) || changed;
      }
    }
    if (changed) this.render();
  }

  private observe(entry: ThreadEntry): boolean {
    if (entry.kind === 'user') {
      const had = this.items !== null;
      this.items = null;
      this.planEntryId = null;
      return had;
    }
    if (entry.kind !== 'plan') return false;
    this.planEntryId = entry.id;
    this.items = entry.items;
    this.stopped = entry.stopped === true;
    return true;
  }

  private render(): void {
    const items = this.items;
    this.element.hidden = !items || items.length === 0;
    if (!items || items.length === 0) return;
    const done = items.filter((item) => item.status === 'completed').length;
    const current = items.find((item) => item.status === 'in_progress') ?? items.find((item) => item.status === 'pending');
    const summary = el('button', { class: 'plan-summary', 'aria-expanded': String(this.expanded), title: this.expanded ? 'Hide the plan' : 'Show the whole plan' },
      icon(this.expanded ? 'chevron-down' : 'chevron-right'), icon(this.stopped ? 'debug-stop' : 'checklist'),
      el('span', { class: 'plan-count' }, `${done}/${items.length}`),
      el('span', { class: 'plan-current' }, currentText(current, this.stopped)));
    summary.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this.render();
    });
    const progress = el('span', { class: 'plan-progress', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(items.length), 'aria-valuenow': String(done), 'aria-label': 'Plan progress' },
      el('span', { class: 'plan-progress-fill' }));
    (progress.firstElementChild as HTMLElement).style.setProperty('--done', `${(done / items.length) * 100}%`);
    const list = this.expanded
      ? el('ol', { class: 'plan-strip-items' }, ...items.map((item) => el('li', { class: `plan-item plan-${item.status}` }, icon(this.stopped && item.status === 'in_progress' ? 'debug-stop' : planIcons[item.status]), ` ${item.content}`)))
      : null;
    this.element.dataset.planEntryId = this.planEntryId ?? '';
    this.element.classList.toggle('stopped', this.stopped);
    this.element.replaceChildren(el('div', { class: 'plan-strip-header' }, summary, progress), ...(list ? [list] : []));
  }
}
