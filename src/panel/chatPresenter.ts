import type { AgentDefinition } from '../agents/agentConfig';
import type { HostToWebview, PanelAction, WebviewToHost } from '../contract/messages';
import { emptyReview } from '../contract/reviewView';
import type { TabsView } from '../contract/sessionTabsView';
import type { TerminalAction } from '../contract/terminalView';
import type { AgentChoiceView, PanelState } from '../contract/viewModel';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import { assertNever } from '../util/assertNever';
import type { Disposable } from '../util/disposable';
import { DeltaBatcher } from './deltaBatcher';
import { PromptDispatcher } from './promptDispatch';
import type { ReviewSource } from './reviewSource';
import type { SessionController, SessionEnvironment } from '../conversation/sessionController';
import { buildHistory, parseHistoryKey } from './sessionHistory';
import { SessionTab, type TabListener } from './sessionTab';
import { TranscriptSaver, type TranscriptRecord, type TranscriptStorage } from './transcripts';
import { ConversationFeature, type ConversationEditor, type ConversationMessage } from './conversationFeature';
import type { MentionView, PromptImageView } from '../contract/conversationView';

/** A session's terminals mirrored in the editor's terminal panel. */
export interface TerminalMirrorHandle extends Disposable {
  reveal(terminalId: string): void;
}

/** What only the editor can do for the panel. */
export interface EditorActions {
  showLog(): void;
  showTraffic(): void;
  openLink(href: string): void;
  rememberAgent(agentId: string): void;
  /** Mirrors the session's terminals in the editor's terminal panel, until disposed. */
  mirrorTerminals?(displays: TerminalDisplays): TerminalMirrorHandle;
  /** Mentions, clipboard, "follow the agent" and the status bar meter. */
  conversation?: ConversationEditor;
}

/**
 * The host side of the chat panel: owns the open conversations (tabs), answers the webview's
 * intents, and streams the active tab to it as a snapshot on `ready` followed by small deltas.
 */
export class ChatPresenter implements Disposable {
  private agents: AgentDefinition[];
  private tabs: SessionTab[] = [];
  private active!: SessionTab;
  private closed: TranscriptRecord[] = [];
  private readonly mirrors = new Map<SessionTab, TerminalMirrorHandle>();
  private readonly batcher: DeltaBatcher;
  private viewReady = false;
  private reviewSubscription: Disposable | null = null;
  private readonly saver: TranscriptSaver;
  private lastTabsJson = '';
  /** Pickers, usage meter, commands, attachments and the permission policy of the active session. */
  private readonly conversation: ConversationFeature;
  private readonly prompts: PromptDispatcher;

  constructor(
    private readonly loadAgents: () => AgentDefinition[],
    selectedAgentId: string,
    private readonly environment: SessionEnvironment,
    private readonly post: (message: HostToWebview) => void,
    private readonly actions: EditorActions,
    private readonly review: ReviewSource | null = null,
    private readonly transcripts: TranscriptStorage | null = null,
  ) {
    this.agents = loadAgents();
    this.batcher = new DeltaBatcher((deltas) => this.send({ type: 'threadDeltas', deltas }));
    this.conversation = new ConversationFeature((message) => this.send(message), environment.frames, actions.conversation, environment.permissionPolicy ?? null);
    this.prompts = new PromptDispatcher(this.conversation, review);
    this.saver = new TranscriptSaver(transcripts, () => ({
      open: this.tabs.filter((tab) => tab.session.thread.length > 0).map((tab) => tab.record()),
      activeTabId: this.active?.id ?? null,
      closed: this.closed,
    }));
    this.restoreTabs(selectedAgentId);
    if (review) this.reviewSubscription = review.onDidChange(() => this.send({ type: 'reviewChanged', review: review.view() }));
  }

  get currentSession(): SessionController {
    return this.active.session;
  }

  /** The active conversation's session; most intents act on it. */
  private get session(): SessionController {
    return this.active.session;
  }

  state(): PanelState {
    return {
      agents: this.agentChoices(),
      selectedAgentId: this.active.agent.id,
      connection: this.session.connectionView,
      turn: this.session.turnView,
      queue: this.active.queue.view(),
      sessionTitle: this.session.thread.facts.title,
      entries: this.session.thread.snapshot(),
      review: this.review?.view() ?? emptyReview,
      terminals: this.session.terminalDisplays.snapshot(),
      tabs: this.tabsView(),
    };
  }

  /** The webview went away (hidden without retained context, or reloaded). */
  detachView(): void {
    this.viewReady = false;
    this.batcher.discard();
    this.active.terminalFeed.discard();
  }

  async handle(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.viewReady = true;
        this.sendSnapshot();
        if (this.session.connectionView.phase === 'idle') void this.session.start();
        return;
      case 'sendPrompt':
        return this.sendPrompt(message.text, message.mentions ?? [], message.images ?? []);
      case 'cancelTurn':
        return this.cancelTurn();
      case 'queueAction':
        return this.prompts.act(this.active, message.action, message.id);
      case 'selectAgent':
        return this.selectAgent(message.agentId);
      case 'answerPermission':
        this.session.answerPermission(message.requestId, message.optionId);
        return;
      case 'runAction':
        return this.runAction(message.action);
      case 'openLink':
        this.actions.openLink(message.href);
        return;
      case 'reviewAction':
        await this.review?.act({ action: message.action, path: message.path, hunkId: message.hunkId });
        return;
      case 'terminalAction':
        return this.terminalAction(message.terminalId, message.action);
      case 'signIn':
        await this.session.signIn(message.methodId);
        return;
      case 'selectTab':
        return this.selectTab(message.tabId);
      case 'closeTab':
        return this.closeTab(message.tabId);
      case 'forkTab':
        return this.forkTab(message.tabId);
      case 'renameTab':
        return this.renameTab(message.tabId, message.title);
      case 'requestHistory':
        this.send({ type: 'historyChanged', history: await buildHistory(this.closed, this.agents, this.session) });
        return;
      case 'openHistory':
        return this.openHistory(message.key);
      case 'deleteHistory':
        return this.deleteHistory(message.key);
      case 'answerElicitation':
        this.session.answerElicitation(message.requestId, message.action, message.values);
        return;
      default:
        return this.handleConversation(message);
    }
  }

  /** Sent now, or queued behind the running turn. */
  sendPrompt(text: string, mentions: readonly MentionView[] = [], images: readonly PromptImageView[] = []): Promise<void> {
    return this.prompts.send(this.active, { text, mentions, images });
  }

  /** The user stopped the agent; queued messages wait for them. */
  cancelTurn(): Promise<void> {
    return this.prompts.cancel(this.active);
  }

  /** Another agent for the active conversation: an empty tab switches, a used one opens a new tab. */
  async selectAgent(agentId: string): Promise<void> {
    // Settings may have changed since the list was read; a session always starts from the current ones.
    this.agents = this.loadAgents();
    const agent = this.agents.find((candidate) => candidate.id === agentId);
    if (!agent) return;
    if (agentId === this.active.agent.id && this.session.connectionView.phase !== 'failed') return;
    this.actions.rememberAgent(agentId);
    const replaced = this.session.thread.length === 0 ? this.active : null;
    const tab = this.openTab(agent);
    this.removeTab(replaced);
    await tab.session.start();
  }

  /** A fresh conversation, in a new tab, with the active tab's agent. */
  async newSession(): Promise<void> {
    this.agents = this.loadAgents();
    const agent = this.agents.find((candidate) => candidate.id === this.active.agent.id) ?? this.agents[0];
    if (!agent) return;
    const tab = this.openTab(agent);
    await tab.session.start();
  }

  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'showLog':
        return this.actions.showLog();
      case 'showTraffic':
        return this.actions.showTraffic();
      case 'restartAgent':
        // A restart after fixing the settings (say, an agent's command) must pick the fix up.
        this.agents = this.loadAgents();
        if (this.session.connectionView.phase === 'failed') return this.replaceActive();
        await this.session.restart();
        return;
      case 'newSession':
        return this.newSession();
      default:
        assertNever(action, 'panel action');
    }
  }

  async terminalAction(terminalId: string, action: TerminalAction): Promise<void> {
    const displays = this.session.terminalDisplays;
    switch (action) {
      case 'kill':
        // Tandem stops the commands it runs; one the agent runs itself stops with the turn.
        if (!displays.stop(terminalId) && displays.view(terminalId)?.running) await this.cancelTurn();
        return;
      case 'reveal':
        this.mirrors.get(this.active)?.reveal(terminalId);
        return;
      default:
        assertNever(action, 'terminal action');
    }
  }

  /** The agent settings changed. */
  reloadAgents(): void {
    this.agents = this.loadAgents();
    this.send({ type: 'agentsChanged', agents: this.agentChoices(), selectedAgentId: this.active.agent.id });
  }

  dispose(): void {
    this.saver.saveNow();
    this.reviewSubscription?.dispose();
    for (const tab of this.tabs) tab.dispose();
    this.tabs = [];
    this.batcher.dispose();
    this.conversation.dispose();
  }

  /** Intents of the conversation UI (pickers, mentions, policy). */
  private handleConversation(message: ConversationMessage): Promise<void> {
    return this.conversation.handle(message);
  }

  private openTab(agent: AgentDefinition, id?: string): SessionTab {
    const listener: TabListener = {
      delta: (tab, delta) => {
        if (tab === this.active && this.viewReady) this.batcher.push(delta);
      },
      connection: (tab, connection) => {
        if (tab !== this.active) return;
        this.batcher.flush();
        this.send({ type: 'connectionChanged', connection });
      },
      turn: (tab, turn) => {
        if (tab === this.active) {
          this.batcher.flush();
          tab.terminalFeed.flush();
          this.send({ type: 'turnChanged', turn });
        }
        if (!turn.running) void this.prompts.turnEnded(tab);
        this.saver.schedule();
      },
      queue: (tab) => {
        if (tab === this.active) this.send({ type: 'queueChanged', queue: tab.queue.view() });
      },
      terminals: (tab, changed, output) => {
        if (tab === this.active) this.send({ type: 'terminalDeltas', changed, output });
      },
      activity: () => this.sendTabs(),
    };
    const mirror = this.actions.mirrorTerminals;
    let handle: TerminalMirrorHandle | null = null;
    const tab = new SessionTab(agent, this.environment, listener, mirror ? (displays) => (handle = mirror(displays)) : undefined, id);
    if (handle) this.mirrors.set(tab, handle);
    this.tabs.push(tab);
    this.activate(tab);
    return tab;
  }

  private activate(tab: SessionTab): void {
    if (this.active === tab) return;
    this.active = tab;
    this.sendSnapshot();
    this.saver.schedule();
  }

  private async selectTab(tabId: string): Promise<void> {
    const tab = this.tabs.find((candidate) => candidate.id === tabId);
    if (!tab) return;
    this.activate(tab);
    if (tab.session.connectionView.phase === 'idle' && tab.session.thread.length === 0) await tab.session.start();
  }

  private async closeTab(tabId: string): Promise<void> {
    const tab = this.tabs.find((candidate) => candidate.id === tabId);
    if (!tab) return;
    if (tab.session.thread.length > 0) this.closed = [tab.record(), ...this.closed.filter((record) => record.tabId !== tab.id)];
    await tab.session.close().catch(() => undefined);
    this.removeTab(tab);
  }

  private removeTab(tab: SessionTab | null): void {
    if (!tab) return;
    this.tabs = this.tabs.filter((candidate) => candidate !== tab);
    this.mirrors.delete(tab);
    tab.dispose();
    if (this.tabs.length === 0) {
      const agent = this.agents.find((candidate) => candidate.id === tab.agent.id) ?? this.agents[0];
      if (agent) this.openTab(agent);
    } else if (this.active === tab) {
      this.active = this.tabs[this.tabs.length - 1] as SessionTab;
      this.sendSnapshot();
    } else {
      this.sendTabs();
    }
    this.saver.schedule();
  }

  /** A new tab that continues from a copy of this conversation, where the agent can fork. */
  private async forkTab(tabId: string): Promise<void> {
    const source = this.tabs.find((candidate) => candidate.id === tabId);
    const sessionId = source?.session.currentSessionId;
    if (!source || !sessionId || !source.session.history.fork) return;
    const fork = this.openTab(source.agent);
    fork.session.thread.restore(source.session.thread.snapshot());
    fork.session.thread.setFact('title', `${source.title} (fork)`);
    fork.session.thread.addNotice('info', `Forked from "${source.title}": what you send here does not change the original conversation.`);
    if (!(await fork.session.openExisting({ kind: 'fork', sessionId }))) {
      fork.session.thread.addNotice('error', `${source.agent.label} could not fork the session. ${fork.session.connectionView.message ?? ''}`.trim(), ['showLog']);
    }
    this.sendTabs();
  }

  private renameTab(tabId: string, title: string): void {
    const tab = this.tabs.find((candidate) => candidate.id === tabId);
    if (!tab) return;
    tab.session.thread.setFact('title', title.trim());
    this.sendTabs();
    this.saver.schedule();
  }

  private async openHistory(key: string): Promise<void> {
    const parsed = parseHistoryKey(key);
    if (!parsed) return;
    this.agents = this.loadAgents();
    if (parsed.source === 'tandem') {
      const record = this.closed.find((candidate) => candidate.tabId === parsed.tabId);
      const agent = record && this.agents.find((candidate) => candidate.id === record.agentId);
      if (!record || !agent) return;
      this.closed = this.closed.filter((candidate) => candidate !== record);
      const tab = this.openTab(agent, record.tabId);
      tab.restore(record);
      this.sendSnapshot();
      return;
    }
    const agent = this.agents.find((candidate) => candidate.id === parsed.agentId);
    if (!agent) return;
    const tab = this.openTab(agent);
    const history = this.session.history;
    const kind = history.load || !history.resume ? 'load' : 'resume';
    if (kind === 'resume') tab.session.thread.addNotice('info', `${agent.label} can resume this session but not replay it: earlier messages are not shown.`);
    if (!(await tab.session.openExisting({ kind, sessionId: parsed.sessionId }))) {
      tab.session.thread.addNotice('error', `${agent.label} could not open that session. ${tab.session.connectionView.message ?? ''}`.trim(), ['showLog']);
    }
    this.sendTabs();
  }

  private async deleteHistory(key: string): Promise<void> {
    const parsed = parseHistoryKey(key);
    if (!parsed) return;
    if (parsed.source === 'tandem') this.closed = this.closed.filter((record) => record.tabId !== parsed.tabId);
    else if (parsed.agentId === this.active.agent.id) await this.session.deleteAgentSession(parsed.sessionId);
    this.saver.schedule();
    this.send({ type: 'historyChanged', history: await buildHistory(this.closed, this.agents, this.session) });
  }

  private replaceActive(): void {
    const old = this.active;
    const agent = this.agents.find((candidate) => candidate.id === old.agent.id) ?? old.agent;
    this.openTab(agent);
    this.removeTab(old);
    void this.session.start();
  }

  /** Tabs from the last window (transcripts included), or one fresh tab. */
  private restoreTabs(selectedAgentId: string): void {
    const saved = this.transcripts?.read();
    this.closed = saved?.closed ?? [];
    for (const record of saved?.open ?? []) {
      const agent = this.agents.find((candidate) => candidate.id === record.agentId);
      if (!agent) continue;
      this.openTab(agent, record.tabId).restore(record);
    }
    const activeSaved = this.tabs.find((tab) => tab.id === saved?.activeTabId);
    if (activeSaved) this.activate(activeSaved);
    if (this.tabs.length > 0) return;
    const agent = this.agents.find((candidate) => candidate.id === selectedAgentId) ?? this.agents[0];
    if (!agent) throw new Error('No agent is configured.');
    this.openTab(agent);
  }

  private sendSnapshot(): void {
    this.conversation.show(this.session);
    if (!this.viewReady) return;
    this.batcher.discard();
    this.active.terminalFeed.discard();
    this.lastTabsJson = JSON.stringify(this.tabsView());
    this.post({ type: 'snapshot', state: this.state() });
    this.conversation.postAll();
  }

  private sendTabs(): void {
    const tabs = this.tabsView();
    const json = JSON.stringify(tabs);
    if (json === this.lastTabsJson) return;
    this.lastTabsJson = json;
    this.send({ type: 'tabsChanged', tabs });
  }

  private tabsView(): TabsView {
    return { tabs: this.tabs.map((tab) => tab.view()), activeTabId: this.active.id };
  }

  private send(message: HostToWebview): void {
    if (this.viewReady) this.post(message);
  }

  private agentChoices(): AgentChoiceView[] {
    return this.agents.map((agent) => ({ id: agent.id, label: agent.label, description: agent.description }));
  }
}
