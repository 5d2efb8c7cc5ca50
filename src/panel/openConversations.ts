import type { AgentDefinition } from '../agents/agentConfig';
import type { TabsView } from '../contract/sessionTabsView';
import type { SessionController, SessionEnvironment } from '../conversation/sessionController';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import type { Disposable } from '../util/disposable';
import type { AgentCatalog } from './agentCatalog';
import type { TerminalMirrorHandle } from '../terminals/terminalDisplays';
import type { MessageHandlers } from './panelMessages';
import { SessionTab, type TabListener } from './sessionTab';
import { distinctTitles } from './tabTitles';
import type { TranscriptRecord, TranscriptsState } from './transcripts';
import type { WaitingQuestion } from './waitingQuestions';

/** What the open conversations tell the rest of the panel. */
export interface OpenConversationsEvents {
  /** Another conversation is in front: the webview needs a snapshot of it. */
  activated(): void;
  /** Only the tab strip changed (a background tab came or went). */
  tabsChanged(): void;
  /** What the saved transcripts hold changed. */
  changed(): void;
  /** A conversation with something in it was closed, for the history to keep. */
  closed(record: TranscriptRecord): void;
}

/**
 * The open conversations (tabs) and the one in front. One is always open: closing the last one
 * opens a fresh conversation with the same agent.
 */
export class OpenConversations implements Disposable {
  private tabs: SessionTab[] = [];
  private current: SessionTab | null = null;
  private readonly mirrors = new Map<SessionTab, TerminalMirrorHandle>();

  readonly handlers: MessageHandlers<'selectTab' | 'closeTab'> = {
    selectTab: (message) => this.select(message.tabId),
    closeTab: (message) => this.close(message.tabId),
  };

  constructor(
    private readonly agents: AgentCatalog,
    private readonly environment: SessionEnvironment,
    private readonly listener: TabListener,
    private readonly mirrorTerminals: ((displays: TerminalDisplays) => TerminalMirrorHandle) | undefined,
    private readonly events: OpenConversationsEvents,
  ) {}

  get active(): SessionTab {
    if (!this.current) throw new Error('No conversation is open.');
    return this.current;
  }

  get activeId(): string | null {
    return this.current?.id ?? null;
  }

  isActive(tab: SessionTab): boolean {
    return tab === this.current;
  }

  find(tabId: string): SessionTab | undefined {
    return this.tabs.find((candidate) => candidate.id === tabId);
  }

  /** The conversations worth saving: those with something in them (a replay is in its recording already). */
  records(): TranscriptRecord[] {
    return this.tabs.filter((tab) => tab.session.thread.length > 0 && !tab.readOnly).map((tab) => tab.record());
  }

  /** What each conversation's agent waits on the user for, the one in front first. */
  waitingQuestions(): WaitingQuestion[] {
    const ordered = this.current ? [this.current, ...this.tabs.filter((tab) => tab !== this.current)] : this.tabs;
    return ordered.flatMap((tab) => tab.waitingQuestion() ?? []);
  }

  /** Brings a conversation to the front, as picking its tab does. */
  show(tabId: string): Promise<void> {
    return this.select(tabId);
  }

  /** Whether any conversation's agent is in a turn. */
  get anyRunning(): boolean {
    return this.tabs.some((tab) => tab.session.turnView.running);
  }

  /** The tab that shows this tool call's card, the one in front first. */
  withToolCall(toolCallId: string): SessionTab | undefined {
    return [this.current, ...this.tabs].find((tab) => tab?.session.thread.toolCall(toolCallId) !== undefined) ?? undefined;
  }

  /** A replayed recording in front, in a tab of its own that nothing can act through. */
  openReplay(session: SessionController): SessionTab {
    const tab = new SessionTab(session.agent, this.environment, this.listener, undefined, undefined, session);
    this.tabs.push(tab);
    this.activate(tab);
    return tab;
  }

  /** The strip: repeated titles numbered, so each tab can be told apart. */
  view(): TabsView {
    const tabs = this.tabs.map((tab) => tab.view());
    const titles = distinctTitles(tabs.map((tab) => tab.title));
    return { tabs: tabs.map((tab, index) => ({ ...tab, title: titles[index] ?? tab.title })), activeTabId: this.active.id };
  }

  /** A new conversation in front (`id`: the tab it was before, when it comes back from a transcript). */
  open(agent: AgentDefinition, id?: string): SessionTab {
    const mirror = this.mirrorTerminals;
    let handle: TerminalMirrorHandle | null = null;
    const tab = new SessionTab(agent, this.environment, this.listener, mirror ? (displays) => (handle = mirror(displays)) : undefined, id);
    if (handle) this.mirrors.set(tab, handle);
    this.tabs.push(tab);
    this.activate(tab);
    return tab;
  }

  /** A conversation with `agent`, in place of the active one while that is still empty. */
  openInPlaceOfEmpty(agent: AgentDefinition): SessionTab {
    return this.replace(this.active.session.thread.length === 0 ? this.active : null, agent);
  }

  /** The active conversation starts over in a new tab, with its agent's settings as they are now. */
  replaceActive(): SessionTab {
    const old = this.active;
    return this.replace(old, this.agents.find(old.agent.id) ?? old.agent);
  }

  /** Shows the active conversation's terminal in the editor's terminal panel. */
  revealTerminal(terminalId: string): void {
    this.mirrors.get(this.active)?.reveal(terminalId);
  }

  /** The conversations of the last window, transcripts included, or one fresh conversation. */
  restore(saved: TranscriptsState | undefined, selectedAgentId: string): void {
    for (const record of saved?.open ?? []) {
      const agent = this.agents.find(record.agentId);
      if (agent) this.open(agent, record.tabId).restore(record);
    }
    const activeSaved = this.tabs.find((tab) => tab.id === saved?.activeTabId);
    if (activeSaved) this.activate(activeSaved);
    if (this.tabs.length > 0) return;
    const agent = this.agents.findOrFirst(selectedAgentId);
    if (!agent) throw new Error('No agent is configured.');
    this.open(agent);
  }

  dispose(): void {
    for (const tab of this.tabs) tab.dispose();
    this.tabs = [];
    this.mirrors.clear();
  }

  private activate(tab: SessionTab): void {
    if (this.current === tab) return;
    this.current = tab;
    this.events.activated();
    this.events.changed();
  }

  /** An empty tab that never ran starts now; one restored from a transcript starts with its next message, so looking costs no agent process. */
  private async select(tabId: string): Promise<void> {
    const tab = this.find(tabId);
    if (!tab) return;
    this.activate(tab);
    if (tab.session.connectionView.phase === 'idle' && tab.session.thread.length === 0 && !tab.readOnly) await tab.session.start();
  }

  private async close(tabId: string): Promise<void> {
    const tab = this.find(tabId);
    if (!tab) return;
    if (tab.session.thread.length > 0 && !tab.readOnly) this.events.closed(tab.record());
    await tab.session.close().catch(() => undefined);
    this.remove(tab);
  }

  /** The new tab opens before the old one goes, so there is never no conversation. */
  private replace(old: SessionTab | null, agent: AgentDefinition): SessionTab {
    const tab = this.open(agent);
    this.remove(old);
    return tab;
  }

  private remove(tab: SessionTab | null): void {
    if (!tab) return;
    this.tabs = this.tabs.filter((candidate) => candidate !== tab);
    this.mirrors.delete(tab);
    tab.dispose();
    if (this.tabs.length === 0) {
      const agent = this.agents.findOrFirst(tab.agent.id);
      if (agent) this.open(agent);
    } else if (this.current === tab) {
      this.current = this.tabs[this.tabs.length - 1] as SessionTab;
      this.events.activated();
    } else {
      this.events.tabsChanged();
    }
    this.events.changed();
  }
}
