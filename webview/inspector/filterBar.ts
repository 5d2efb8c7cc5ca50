import type { ConnectionView, FrameFilterView } from '../../src/contract/inspectorView';
import { el } from '../dom';

/** Typing pauses this long before the host filters, so a word costs one pass, not one per key. */
const TYPING_MS = 150;

function option(value: string, label: string): HTMLOptionElement {
  return el('option', { value }, label);
}

/** Search, direction, method, connection, tool call and "marked only": each change asks the host for the rows that pass. */
export class FilterBar {
  readonly element: HTMLElement;
  private readonly search = el('input', { type: 'search', class: 'filter-text', placeholder: 'Search frames', 'aria-label': 'Search frames' });
  private readonly direction = el('select', { 'aria-label': 'Direction' }, option('', 'Both directions'), option('in', '← from the agent'), option('out', '→ to the agent'));
  private readonly method = el('select', { 'aria-label': 'Method' }, option('', 'Every method'));
  /** Offered only when the frames went over more than one connection (an agent restarted, or two agents). */
  private readonly connection = el('select', { 'aria-label': 'Connection' }, option('', 'Every connection'));
  private readonly marked = el('input', { type: 'checkbox', id: 'marked-only' });
  private readonly toolChip = el('button', { class: 'tool-chip', type: 'button', title: 'Show every tool call again' });
  private readonly counter = el('span', { class: 'frame-count', 'aria-live': 'polite' });
  private filter: FrameFilterView = { direction: null, method: null, toolCallId: null, connection: null, text: null, markedOnly: false };
  private typing: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly onChange: (filter: FrameFilterView) => void, actions: HTMLElement[]) {
    this.element = el('div', { class: 'filter-bar', role: 'search' },
      this.search, this.direction, this.method, this.connection,
      el('label', { class: 'marked-label' }, this.marked, 'Marked only'),
      this.toolChip, this.counter, el('span', { class: 'spacer' }), ...actions);
    this.search.addEventListener('input', () => {
      if (this.typing) clearTimeout(this.typing);
      this.typing = setTimeout(() => this.change({ text: this.search.value || null }), TYPING_MS);
    });
    this.direction.addEventListener('change', () => {
      // Only types come from the contract here: its runtime side carries the host's validator.
      const value = this.direction.value;
      this.change({ direction: value === 'in' || value === 'out' ? value : null });
    });
    this.method.addEventListener('change', () => this.change({ method: this.method.value || null }));
    this.connection.addEventListener('change', () => this.change({ connection: this.connection.value ? Number(this.connection.value) : null }));
    this.marked.addEventListener('change', () => this.change({ markedOnly: this.marked.checked }));
    this.toolChip.addEventListener('click', () => this.change({ toolCallId: null }));
  }

  /** The host's filter (it may set one itself: "Show frames" of a tool card). */
  set(filter: FrameFilterView, methods?: readonly string[], connections?: readonly ConnectionView[]): void {
    this.filter = filter;
    if (methods) this.method.replaceChildren(option('', 'Every method'), ...methods.map((method) => option(method, method)));
    if (connections) {
      this.connection.replaceChildren(option('', 'Every connection'), ...connections.map(({ connection, agent }) => option(String(connection), `Connection ${connection}${agent ? `: ${agent}` : ''}`)));
      this.connection.hidden = connections.length < 2 && filter.connection === null;
    }
    this.connection.value = filter.connection === null ? '' : String(filter.connection);
    this.search.value = filter.text ?? '';
    this.direction.value = filter.direction ?? '';
    this.method.value = filter.method ?? '';
    this.marked.checked = filter.markedOnly;
    this.toolChip.hidden = filter.toolCallId === null;
    this.toolChip.textContent = filter.toolCallId ? `Tool call ${filter.toolCallId} ✕` : '';
  }

  /** Filters to one tool call's frames, keeping the rest of the filter. */
  showToolCall(toolCallId: string): void {
    this.change({ toolCallId });
  }

  count(shown: number, total: number): void {
    this.counter.textContent = shown === total ? `${total.toLocaleString()} frames` : `${shown.toLocaleString()} of ${total.toLocaleString()} frames`;
  }

  private change(part: Partial<FrameFilterView>): void {
    this.set({ ...this.filter, ...part });
    this.onChange(this.filter);
  }
}
