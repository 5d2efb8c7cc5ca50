import type { FrameRowView } from '../../src/contract/inspectorView';
import { el } from '../dom';
import { directionLabel, frameLabel, latencyLabel, sizeLabel, timeLabel } from './rowText';

/** Every row is this tall, so a scroll position names its row without measuring. */
export const ROW_HEIGHT = 22;
/** Rows kept ready above and below the viewport, so a fast scroll shows no gap. */
const OVERSCAN = 10;

const COLUMNS = ['#', 'Time', 'Direction', 'Message', 'Tool call', 'Size', 'Latency', ''] as const;

function cell(text: string, className: string): HTMLElement {
  return el('span', { class: `cell ${className}`, role: 'gridcell' }, text);
}

/**
 * The frames as a grid that renders only the rows in view: a spacer gives the scroll height of
 * every row, and a small pool of row elements is moved and refilled as the view scrolls, so
 * 20,000 frames cost what the visible forty do.
 */
export class FrameList {
  readonly element: HTMLElement;
  private readonly spacer = el('div', { class: 'frame-spacer' });
  private readonly pool: HTMLElement[] = [];
  private rows: FrameRowView[] = [];
  /** Positions of the rows that pass the filter; null: all rows. */
  private visible: number[] | null = null;
  private selected: number | null = null;
  private scheduled = false;

  constructor(private readonly onSelect: (index: number) => void) {
    const header = el('div', { class: 'frame-row frame-header', role: 'row' }, ...COLUMNS.map((name) => el('span', { class: 'cell', role: 'columnheader' }, name)));
    this.element = el('div', { class: 'frame-list', role: 'grid', tabindex: '0', 'aria-label': 'Frames' }, header, this.spacer);
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (row?.dataset.index) this.select(Number(row.dataset.index));
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  get count(): number {
    return this.visible?.length ?? this.rows.length;
  }

  reset(rows: FrameRowView[], visible: number[] | null): void {
    this.rows = rows;
    this.setVisible(visible);
  }

  setVisible(visible: number[] | null): void {
    this.visible = visible;
    this.spacer.style.height = `${this.count * ROW_HEIGHT}px`;
    this.element.setAttribute('aria-rowcount', String(this.count + 1));
    this.schedule();
  }

  /** Marks the host found after the rows came (frames the SDK dropped or changed). */
  setMarks(marks: readonly { index: number; mark: NonNullable<FrameRowView['mark']> }[]): void {
    for (const { index, mark } of marks) {
      const row = this.rows[index];
      if (row) row.mark = mark;
    }
    this.schedule();
  }

  row(index: number): FrameRowView | undefined {
    return this.rows[index];
  }

  /** Selects a frame and scrolls it into view; a frame the filter hides is still shown in the details. */
  select(index: number): void {
    this.selected = index;
    const slot = this.slotOf(index);
    if (slot !== null) {
      const top = slot * ROW_HEIGHT;
      const view = this.element.clientHeight - ROW_HEIGHT;
      if (top < this.element.scrollTop) this.element.scrollTop = top;
      else if (top > this.element.scrollTop + view) this.element.scrollTop = top - view;
      this.element.setAttribute('aria-activedescendant', `frame-${index}`);
    }
    this.schedule();
    this.onSelect(index);
  }

  private slotOf(index: number): number | null {
    if (!this.visible) return index < this.rows.length ? index : null;
    const slot = this.visible.indexOf(index);
    return slot < 0 ? null : slot;
  }

  private positionAt(slot: number): number | undefined {
    return this.visible ? this.visible[slot] : slot < this.rows.length ? slot : undefined;
  }

  private onKey(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.element.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -Infinity, End: Infinity };
    const move = moves[event.key];
    if (move === undefined || this.count === 0) return;
    event.preventDefault();
    const current = this.selected === null ? -1 : (this.slotOf(this.selected) ?? -1);
    const slot = Math.min(this.count - 1, Math.max(0, current + move));
    const index = this.positionAt(slot);
    if (index !== undefined) this.select(index);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  }

  private render(): void {
    const first = Math.max(0, Math.floor(this.element.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const wanted = Math.ceil(this.element.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN;
    const last = Math.min(this.count, first + wanted);
    while (this.pool.length < last - first) {
      const element = el('div', { class: 'frame-row', role: 'row' });
      this.pool.push(element);
      this.spacer.append(element);
    }
    this.pool.forEach((element, i) => {
      const index = first + i < last ? this.positionAt(first + i) : undefined;
      const row = index === undefined ? undefined : this.rows[index];
      element.hidden = row === undefined;
      if (row) this.fill(element, row, first + i);
    });
  }

  private fill(element: HTMLElement, row: FrameRowView, slot: number): void {
    element.style.transform = `translateY(${slot * ROW_HEIGHT}px)`;
    element.id = `frame-${row.index}`;
    element.dataset.index = String(row.index);
    element.setAttribute('aria-rowindex', String(slot + 2));
    element.setAttribute('aria-selected', String(row.index === this.selected));
    element.className = `frame-row dir-${row.direction} kind-${row.kind}${row.mark ? ` marked mark-${row.mark.kind}` : ''}${row.index === this.selected ? ' selected' : ''}`;
    element.replaceChildren(
      cell(String(row.index + 1), 'c-n'),
      cell(timeLabel(row.at), 'c-time'),
      cell(directionLabel(row), 'c-dir'),
      cell(frameLabel(row), 'c-msg'),
      cell(row.toolCallId ?? '', 'c-tool'),
      cell(sizeLabel(row.size), 'c-size'),
      cell(latencyLabel(row), 'c-latency'),
      cell(row.mark ? row.mark.kind : '', 'c-mark'),
    );
    element.title = row.mark ? `${row.mark.kind}: ${row.mark.reason}` : '';
  }
}
