import type { HistoryView, TabsView, TabView } from '../../src/contract/sessionTabsView';
import { el, icon, spinner } from '../dom';
import type { PostToHost } from '../vscodeApi';
import { TabsOverflow } from './tabsOverflow';

function timeAgo(iso: string | null): string {
  if (!iso) return '';
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60000);
  if (!Number.isFinite(minutes)) return '';
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : new Date(iso).toLocaleDateString();
}

/**
 * Open conversations as tabs (busy and waiting shown), the list of those that do not fit, and the
 * history list. A new conversation is the view's own "+" (package.json's view/title menu).
 */
export class TabsBar {
  readonly element = el('nav', { class: 'tabs-bar', id: 'tabs-bar', 'aria-label': 'Conversations' });
  // A list of buttons, not a tablist: a tab's own Fork and Close buttons may not sit inside a role="tab".
  private readonly strip = el('div', { class: 'tabs-strip', role: 'list', 'aria-label': 'Open conversations' });
  private readonly historyPanel = el('div', { class: 'history-panel', id: 'history-panel', hidden: '', role: 'dialog', 'aria-label': 'Earlier conversations', tabindex: '-1' });
  private readonly historyButton: HTMLButtonElement;
  private readonly overflow: TabsOverflow;
  /** Says which tab came to the front when one opens, whatever opened it (the "+", an agent picked, the history). */
  private readonly announcement = el('span', { class: 'visually-hidden', id: 'tabs-announcement', role: 'status' });
  private shown: TabsView | null = null;

  constructor(private readonly post: PostToHost) {
    this.overflow = new TabsOverflow(this.strip, (tabId) => this.post({ type: 'selectTab', tabId }), () => this.showHistory(false));
    const history = el('button', {
      class: 'icon-button', id: 'history-button', title: 'Earlier conversations', 'aria-label': 'Earlier conversations', 'aria-expanded': 'false', 'aria-controls': 'history-panel',
    }, icon('history'));
    history.addEventListener('click', () => this.showHistory(this.historyPanel.hidden));
    this.historyButton = history;
    // Escape closes the list from anywhere in it and gives the keyboard back to the button that opened it.
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || this.historyPanel.hidden) return;
      event.preventDefault();
      this.showHistory(false);
      history.focus();
    });
    this.strip.addEventListener('keydown', (event) => this.moveBetweenTabs(event));
    this.element.append(el('div', { class: 'tabs-row' }, this.strip, this.overflow.button, history), this.overflow.menu, this.historyPanel, this.announcement);
  }

  private showHistory(open: boolean): void {
    this.historyPanel.hidden = !open;
    this.historyButton.setAttribute('aria-expanded', String(open));
    if (!open) return;
    this.overflow.show(false);
    this.historyPanel.replaceChildren(el('div', { class: 'history-note' }, 'Loading…'));
    this.historyPanel.focus();
    this.post({ type: 'requestHistory' });
  }

  /** One Tab stop for the whole strip: arrows, Home and End move between conversations (Enter opens one). */
  private moveBetweenTabs(event: KeyboardEvent): void {
    const tabs = [...this.strip.querySelectorAll<HTMLElement>('.tab-main')];
    const at = tabs.indexOf(event.target as HTMLElement);
    if (at < 0 || tabs.length < 2) return;
    const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    for (const tab of tabs) tab.setAttribute('tabindex', tab === target ? '0' : '-1');
    target?.focus();
  }

  render(view: TabsView): void {
    this.element.hidden = false;
    // A keyboard user who closed or opened a conversation from the strip stays in it, on the one now in front.
    const hadFocus = this.strip.contains(document.activeElement);
    this.strip.replaceChildren(...view.tabs.map((tab) => {
      const active = tab.id === view.activeTabId;
      const state = tab.waiting ? icon('shield', 'tab-waiting') : tab.busy ? spinner('loading', 'tab-busy') : null;
      const label = el('span', { class: 'tab-title' }, tab.title);
      const main = el('div', { class: 'tab-main', role: 'button', tabindex: active ? '0' : '-1', ...(active ? { 'aria-current': 'true' } : {}) },
        state, label, el('span', { class: 'tab-agent' }, tab.agentLabel));
      main.addEventListener('keydown', (event) => {
        if (event.target === main && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          this.post({ type: 'selectTab', tabId: tab.id });
        }
      });
      const item = el('div', {
        class: `tab${active ? ' active' : ''}${tab.busy ? ' busy' : ''}${tab.waiting ? ' waiting' : ''}`, role: 'listitem', 'data-tab-id': tab.id,
        title: `${tab.title} — ${tab.agentLabel}${tab.waiting ? ' (waiting for your permission)' : tab.busy ? ' (working)' : ''}`,
      }, main);
      item.addEventListener('click', () => this.post({ type: 'selectTab', tabId: tab.id }));
      label.addEventListener('dblclick', () => this.rename(tab.id, label));
      if (active && tab.canFork) {
        const fork = el('button', { class: 'icon-button tab-fork', title: `Fork ${tab.title}: continue in a new tab from here`, 'aria-label': `Fork ${tab.title}` }, icon('repo-forked'));
        fork.addEventListener('click', (event) => {
          event.stopPropagation();
          this.post({ type: 'forkTab', tabId: tab.id });
        });
        item.append(fork);
      }
      if (view.tabs.length > 1 || tab.busy || tab.title !== 'New conversation') {
        const close = el('button', { class: 'icon-button tab-close', title: `Close ${tab.title}`, 'aria-label': `Close ${tab.title}` }, icon('close'));
        close.addEventListener('click', (event) => {
          event.stopPropagation();
          this.post({ type: 'closeTab', tabId: tab.id });
        });
        item.append(close);
      }
      return item;
    }));
    if (hadFocus) this.strip.querySelector<HTMLElement>('.tab.active .tab-main')?.focus();
    this.overflow.render(view);
    this.announceOpened(view);
    this.shown = view;
  }

  /** A tab that was not there before is in front: say so, and what became of the one that was. */
  private announceOpened(view: TabsView): void {
    const before = this.shown;
    const active = view.tabs.find((tab) => tab.id === view.activeTabId);
    if (!before || !active || before.tabs.some((tab) => tab.id === active.id)) return;
    const previous: TabView | undefined = view.tabs.find((tab) => tab.id === before.activeTabId);
    const stays = previous ? ` “${previous.title}” stays open with ${previous.agentLabel}.` : '';
    this.announcement.textContent = `Opened “${active.title}” with ${active.agentLabel}.${stays}`;
  }

  renderHistory(history: HistoryView): void {
    if (this.historyPanel.hidden) return;
    const rows = history.items.map((item) => {
      const open = el('button', { class: 'history-open', title: `Open “${item.title}”` },
        el('span', { class: 'history-title' }, item.title),
        el('span', { class: 'history-meta' }, `${item.agentLabel} · ${item.source === 'tandem' ? 'kept by Tandem' : 'from the agent'} ${timeAgo(item.updatedAt) ? `· ${timeAgo(item.updatedAt)}` : ''}`));
      open.addEventListener('click', () => {
        this.showHistory(false);
        // The list is gone: the keyboard goes back to the button that opened it.
        this.historyButton.focus();
        this.post({ type: 'openHistory', key: item.key });
      });
      const remove = el('button', { class: 'icon-button', title: `Delete “${item.title}”`, 'aria-label': `Delete ${item.title}` }, icon('trash'));
      remove.addEventListener('click', () => this.post({ type: 'deleteHistory', key: item.key }));
      return el('div', { class: 'history-item', 'data-key': item.key }, open, remove);
    });
    this.historyPanel.replaceChildren(
      el('div', { class: 'history-header' }, 'Earlier conversations'),
      ...(rows.length > 0 ? rows : [el('div', { class: 'history-note' }, 'No earlier conversations in this workspace.')]),
      ...history.notes.map((note) => el('div', { class: 'history-note' }, note)),
    );
  }

  private rename(tabId: string, label: HTMLElement): void {
    const input = el('input', { class: 'tab-rename', value: label.textContent ?? '', 'aria-label': 'Conversation title' });
    label.replaceWith(input);
    input.focus();
    input.select();
    const finish = (save: boolean) => {
      const title = input.value.trim();
      if (save && title) this.post({ type: 'renameTab', tabId, title });
      input.replaceWith(label);
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finish(true);
      if (event.key === 'Escape') finish(false);
    });
    input.addEventListener('blur', () => finish(true), { once: true });
  }
}
