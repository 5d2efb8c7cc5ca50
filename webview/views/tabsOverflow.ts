import type { TabsView } from '../../src/contract/sessionTabsView';
import { el, icon } from '../dom';

/** Within a pixel: a tab drawn at a fractional position still counts as shown. */
const SLACK = 1;

/**
 * When the open conversations do not fit the strip: the one in front is always scrolled fully
 * into view, and a "N more" button at the strip's end lists every conversation (the one in front
 * checked) to bring any of them forward, by pointer or by keyboard.
 */
export class TabsOverflow {
  readonly button: HTMLButtonElement;
  readonly menu = el('div', { class: 'tabs-menu', id: 'tabs-menu', role: 'menu', 'aria-label': 'Open conversations', hidden: '' });
  private readonly count = el('span', { class: 'tabs-overflow-count' });
  private view: TabsView = { tabs: [], activeTabId: '' };

  constructor(private readonly strip: HTMLElement, private readonly select: (tabId: string) => void, private readonly opened: () => void) {
    this.button = el('button', {
      // Named from the start: hidden until a tab does not fit, it is still a button a check can find.
      class: 'tabs-overflow', id: 'tabs-overflow', hidden: '', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': 'tabs-menu',
      'aria-label': 'Open conversations that do not fit',
    }, icon('chevron-down'), this.count);
    this.button.addEventListener('click', () => this.show(this.menu.hidden));
    this.button.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowDown') return;
      event.preventDefault();
      this.show(true);
    });
    this.menu.addEventListener('keydown', (event) => this.onMenuKey(event));
    this.menu.addEventListener('focusout', (event) => {
      if (!this.menu.contains(event.relatedTarget as Node | null) && event.relatedTarget !== this.button) this.show(false);
    });
    strip.addEventListener('scroll', () => this.measure(), { passive: true });
    // The side bar narrowed or widened: the tab in front stays in view, the count follows.
    new ResizeObserver(() => this.fit()).observe(strip);
  }

  get isOpen(): boolean {
    return !this.menu.hidden;
  }

  render(view: TabsView): void {
    this.view = view;
    if (this.isOpen) this.fillMenu();
    this.fit();
  }

  show(open: boolean, focus = true): void {
    if (open === this.isOpen) return;
    this.menu.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (!open) {
      if (focus && this.menu.contains(document.activeElement)) this.button.focus();
      return;
    }
    this.opened();
    this.fillMenu();
    (this.menu.querySelector<HTMLElement>('[aria-checked="true"]') ?? this.items()[0])?.focus();
  }

  private fillMenu(): void {
    const hadFocus = this.menu.contains(document.activeElement);
    this.menu.replaceChildren(...this.view.tabs.map((tab) => {
      const active = tab.id === this.view.activeTabId;
      const item = el('button', { class: `tabs-menu-item${active ? ' active' : ''}`, role: 'menuitemradio', 'aria-checked': String(active), tabindex: '-1', 'data-tab-id': tab.id },
        icon(active ? 'check' : tab.waiting ? 'shield' : 'blank', 'tabs-menu-mark'),
        el('span', { class: 'tabs-menu-title' }, tab.title),
        el('span', { class: 'tabs-menu-agent' }, tab.agentLabel));
      item.addEventListener('click', () => {
        this.show(false);
        this.select(tab.id);
      });
      return item;
    }));
    if (hadFocus) this.menu.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
  }

  private items(): HTMLElement[] {
    return [...this.menu.querySelectorAll<HTMLElement>('.tabs-menu-item')];
  }

  private onMenuKey(event: KeyboardEvent): void {
    if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      this.show(false, event.key === 'Escape');
      return;
    }
    const items = this.items();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: items.length - 1 }[event.key];
    if (next === undefined || items.length === 0) return;
    event.preventDefault();
    items[(next + items.length) % items.length]?.focus();
  }

  /** The tab in front fully in view, then the button for the rest. */
  private fit(): void {
    this.reveal();
    this.measure();
  }

  private reveal(): void {
    const active = this.strip.querySelector<HTMLElement>('.tab.active');
    if (!active) return;
    const shown = this.strip.getBoundingClientRect();
    const tab = active.getBoundingClientRect();
    if (tab.left < shown.left - SLACK) this.strip.scrollLeft -= shown.left - tab.left;
    else if (tab.right > shown.right + SLACK) this.strip.scrollLeft += Math.min(tab.right - shown.right, tab.left - shown.left);
  }

  private measure(): void {
    const overflowing = this.strip.scrollWidth > this.strip.clientWidth + SLACK;
    if (overflowing === this.button.hidden) {
      this.button.hidden = !overflowing;
      // The strip narrowed or widened with the button: the tab in front may need to move again.
      this.reveal();
    }
    if (!overflowing) {
      if (this.isOpen) this.show(false);
      return;
    }
    const shown = this.strip.getBoundingClientRect();
    const hidden = [...this.strip.querySelectorAll<HTMLElement>('.tab')].filter((tab) => {
      const box = tab.getBoundingClientRect();
      return box.left < shown.left - SLACK || box.right > shown.right + SLACK;
    }).length;
    this.count.textContent = `${hidden} more`;
    const label = `${hidden} more open conversation${hidden === 1 ? '' : 's'}: list all ${this.view.tabs.length}`;
    this.button.title = label;
    this.button.setAttribute('aria-label', label);
  }
}
