import type { CommandView, MentionView } from '../../src/contract/conversationView';
import { el, icon } from '../dom';
import type { PostToHost } from '../vscodeApi';

export { findTrigger, matchCommands, type Trigger } from '../completionMatch';

export type CompletionItem =
  | { kind: 'command'; command: CommandView }
  | { kind: 'mention'; mention: MentionView };

const MENTION_ICONS = { file: 'file', folder: 'folder', selection: 'selection' } as const;

/** The popup list above the message box: arrows move, Enter or Tab accepts, Escape closes. */
export class CompletionList {
  readonly element = el('div', { class: 'completion-list', id: 'completion-list', role: 'listbox', 'aria-label': 'Suggestions', hidden: '' });
  private items: CompletionItem[] = [];
  private selected = 0;
  private accept: ((item: CompletionItem) => void) | null = null;

  constructor() {
    // mousedown, not click: the message box must keep its focus and caret.
    this.element.addEventListener('mousedown', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (!row) return;
      event.preventDefault();
      this.choose(Number(row.dataset.index));
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  show(items: CompletionItem[], accept: (item: CompletionItem) => void): void {
    this.items = items;
    this.accept = accept;
    this.selected = 0;
    this.element.hidden = items.length === 0;
    this.render();
  }

  hide(): void {
    this.element.hidden = true;
    this.items = [];
    this.accept = null;
  }

  /** Handles the key if the list is open; true when it did. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    switch (event.key) {
      case 'ArrowDown':
        this.selected = (this.selected + 1) % this.items.length;
        break;
      case 'ArrowUp':
        this.selected = (this.selected - 1 + this.items.length) % this.items.length;
        break;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        this.choose(this.selected);
        break;
      case 'Escape':
        this.hide();
        break;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    this.render();
    return true;
  }

  private choose(index: number): void {
    const item = this.items[index];
    const accept = this.accept;
    this.hide();
    if (item && accept) accept(item);
  }

  private render(): void {
    this.element.replaceChildren(...this.items.map((item, index) => {
      const selected = index === this.selected;
      const row = item.kind === 'command'
        ? el('div', { class: 'completion-item', role: 'option', 'data-index': String(index), 'aria-selected': String(selected) },
          icon('symbol-event'), el('span', { class: 'completion-label' }, `/${item.command.name}`),
          el('span', { class: 'completion-detail' }, item.command.description))
        : el('div', { class: 'completion-item', role: 'option', 'data-index': String(index), 'aria-selected': String(selected) },
          icon(MENTION_ICONS[item.mention.kind]), el('span', { class: 'completion-label' }, item.mention.label),
          el('span', { class: 'completion-detail' }, item.mention.detail), item.mention.open ? el('span', { class: 'completion-badge' }, 'open') : null);
      if (selected) row.id = 'completion-selected';
      return row;
    }));
    this.element.setAttribute('aria-activedescendant', this.isOpen ? 'completion-selected' : '');
  }
}

/** Asks the host for `@` candidates; only the answer to the newest request is used. */
export class MentionSource {
  private nextRequest = 1;
  private waiting: { id: number; resolve: (items: MentionView[]) => void } | null = null;

  constructor(private readonly post: PostToHost) {}

  request(query: string): Promise<MentionView[]> {
    const id = this.nextRequest++;
    this.waiting?.resolve([]);
    this.post({ type: 'requestMentions', requestId: id, query });
    return new Promise((resolve) => {
      this.waiting = { id, resolve };
    });
  }

  /** The host answered. */
  answer(requestId: number, items: MentionView[]): void {
    if (this.waiting?.id !== requestId) return;
    this.waiting.resolve(items);
    this.waiting = null;
  }
}
