import type { AgentDefinition } from '../agents/agentConfig';
import type { MentionView, PromptImageView } from '../contract/conversationView';
import type { HostToWebview, PanelAction, WebviewToHost } from '../contract/messages';
import { emptyReview } from '../contract/reviewView';
import { runTerminalAction } from './terminalAction';
import type { PanelState } from '../contract/viewModel';
import type { SessionController, SessionEnvironment } from '../conversation/sessionController';
import { assertNever } from '../util/assertNever';
import { DisposableStore, type Disposable } from '../util/disposable';
import { AgentCatalog } from './agentCatalog';
import { scopeCwd } from '../workspace/workspaceScope';
import { CheckpointPanel } from '../checkpoints/panel/checkpointPanel';
import { type CheckpointService } from '../checkpoints/checkpointService';
import { ConversationFeature, type ConversationMessage } from './conversationFeature';
import { ForkAndRename } from './forkAndRename';
import { OpenConversations } from './openConversations';
import { dispatchMessage, type MessageHandlers } from './panelMessages';
import { PromptDispatcher } from './promptDispatch';
import { checkpointPrompts, reviewCommentPrompts, reviewUndoNotes, type PromptContributor } from './promptContributors';
import { allowedInReplay, refuseInReplay, REPLAY_NOTICE } from '../replay/panel/replayTab';
import { ThreadLinks } from './threadLinks';
import { ReviewFeedback } from '../review/comments/reviewFeedback';
import type { ReviewSource } from '../review/reviewSource';
import { SessionHistory } from './sessionHistory';
import type { TabListener } from './sessionTab';
import { TranscriptSaver, type TranscriptStorage } from './transcripts';
import { WebviewStream } from './webviewStream';
import type { WaitingQuestion } from './waitingQuestions';
import { Emitter } from '../util/emitter';
import { everywhereUsed, type EditorActions } from './editorActions';
import type { WorkspaceUse } from './workspaceUse';

/**
 * The host side of the chat panel: wires the open conversations (tabs), their history, the
 * conversation controls and the stream to the webview, and answers the webview's intents.
 */
export class ChatPresenter implements Disposable {
  private readonly agents: AgentCatalog;
  private readonly tabs: OpenConversations;
  private readonly view: WebviewStream;
  private readonly history: SessionHistory;
  private readonly saver: TranscriptSaver;
  /** Pickers, usage meter, commands, attachments and the permission policy of the active session. */
  private readonly conversation: ConversationFeature;
  private readonly prompts: PromptDispatcher;
  private readonly handlers: MessageHandlers;
  private readonly subscriptions = new DisposableStore();
  /** No agent starts unasked until the user did something in Tandem in this workspace. */
  private readonly use: WorkspaceUse;
  /** Comments for the agents and reviewed marks on the pending changes (none without a review source). */
  readonly reviewFeedback: ReviewFeedback | null;
  private readonly waitingChanged = new Emitter<void>();
  /** What the agents wait on the user for may have changed (see waitingQuestions). */
  readonly onWaitingChanged = this.waitingChanged.event;
  /** "Restore to here" on user messages (none without a folder's storage). */
  private readonly checkpoints: CheckpointPanel | null;
  /** The parts that go with every message, in this order (see promptContributors.ts). */
  private readonly promptContributors: readonly PromptContributor[];
  /** "Show frames" on cards and "Show in thread" from the frame inspector. */
  private readonly links: ThreadLinks;

  constructor(
    loadAgents: () => AgentDefinition[],
    selectedAgentId: string,
    environment: SessionEnvironment,
    post: (message: HostToWebview) => void,
    private readonly actions: EditorActions,
    private readonly review: ReviewSource | null = null,
    transcripts: TranscriptStorage | null = null,
    checkpoints: CheckpointService | null = null,
  ) {
    this.agents = new AgentCatalog(loadAgents);
    this.use = actions.workspaceUse ?? everywhereUsed;
    this.conversation = new ConversationFeature((message) => this.view.send(message), actions.conversation, environment.permissionPolicy ?? null);
    this.reviewFeedback = review ? new ReviewFeedback(review, () => this.tabs.active.id) : null;
    this.prompts = new PromptDispatcher(this.conversation, () => this.promptContributors);
    const saved = transcripts?.read();
    // Transcripts are kept only of conversations the user had here (and in the editor's storage).
    if (saved && saved.open.length + saved.closed.length > 0) this.use.markUsed();
    this.saver = new TranscriptSaver(transcripts, () => ({ open: this.tabs.records(), activeTabId: this.tabs.activeId, closed: [...this.history.closed] }), { busy: () => this.tabs.anyRunning });
    const changed = () => {
      this.saver.schedule();
      this.reviewFeedback?.keepConversations(this.tabs.view().tabs.map((tab) => tab.id));
    };
    this.tabs = new OpenConversations(this.agents, environment, this.tabListener(), actions.mirrorTerminals, {
      activated: () => {
        this.waitingChanged.fire();
        this.view.snapshot();
        this.checkpoints?.refresh();
        void this.lookUpInstalled();
      },
      tabsChanged: () => {
        this.view.tabsChanged();
        this.waitingChanged.fire();
      },
      changed,
      closed: (record) => this.history.keep(record),
    });
    this.view = new WebviewStream(post, this.tabs, this.conversation, () => this.state());
    this.checkpoints = checkpoints ? this.subscriptions.add(new CheckpointPanel(checkpoints, this.tabs, (message) => this.view.send(message), () => this.view.tabsChanged())) : null;
    this.promptContributors = this.plugPromptContributors();
    this.history = new SessionHistory(saved?.closed ?? [], this.agents, this.tabs, this.view, changed);
    this.links = new ThreadLinks(this.tabs, (message) => this.view.send(message), actions.showFrames);
    this.handlers = this.messageHandlers(new ForkAndRename(this.tabs, this.view, changed));
    this.tabs.restore(saved, selectedAgentId);
    const feedback = this.reviewFeedback;
    if (feedback) {
      this.subscriptions.add(feedback);
      this.subscriptions.add(feedback.onDidChange(() => this.view.send({ type: 'reviewChanged', review: feedback.view() })));
    }
  }

  /** The active conversation's session; most intents act on it. */
  get currentSession(): SessionController {
    return this.tabs.active.session;
  }

  state(): PanelState {
    const active = this.tabs.active;
    return {
      agents: this.agents.choices(),
      selectedAgentId: active.agent.id,
      connection: this.currentSession.connectionView,
      turn: this.currentSession.turnView,
      queue: active.queue.view(),
      sessionTitle: this.currentSession.thread.facts.title,
      entries: this.currentSession.thread.snapshot(),
      review: this.reviewFeedback?.view() ?? emptyReview,
      terminals: this.currentSession.terminalDisplays.snapshot(),
      tabs: this.tabs.view(),
      workspaceRoot: scopeCwd(this.currentSession.workspace),
    };
  }

  /** Review's undo notes, the checkpoint, then hunk comments: the order the agent reads them in. */
  private plugPromptContributors(): PromptContributor[] {
    const contributors: PromptContributor[] = [];
    if (this.review) contributors.push(reviewUndoNotes(this.review));
    if (this.checkpoints) contributors.push(checkpointPrompts(this.checkpoints));
    if (this.reviewFeedback) contributors.push(reviewCommentPrompts(this.reviewFeedback));
    return contributors;
  }

  /** The webview went away (hidden without retained context, or reloaded). */
  detachView(): void {
    this.view.detach();
  }

  handle(message: WebviewToHost): Promise<void> {
    if (this.tabs.active.readOnly && !allowedInReplay(message)) return refuseInReplay(this.tabs.active, message);
    return dispatchMessage(this.handlers, message);
  }

  /** A replayed recording's conversation in a read-only tab, in front. */
  openReplay(session: SessionController): void {
    this.tabs.openReplay(session).session.thread.addNotice('info', REPLAY_NOTICE);
  }

  /** What the agents of all conversations wait on the user for (permissions, forms), the one in front first. */
  waitingQuestions(): WaitingQuestion[] {
    return this.tabs.waitingQuestions();
  }

  /**
   * Answers a waiting permission from outside the panel (the editor's notification): only while
   * that same request is still open, and only with an option it offered.
   */
  answerWaiting(question: WaitingQuestion, optionId: string): boolean {
    const open = this.tabs.waitingQuestions().find((candidate) => candidate.tabId === question.tabId && candidate.requestId === question.requestId);
    if (open?.kind !== 'permission') return false;
    return this.tabs.find(open.tabId)?.session.answerPermission(open.requestId, optionId) ?? false;
  }

  /** The conversation of `tabId` in front (its question in view). */
  showConversation(tabId: string): Promise<void> {
    return this.tabs.show(tabId);
  }

  /** "Show in thread": the tool call's conversation in front, its card in view; false when no tab shows it. */
  revealToolCall(toolCallId: string): boolean {
    return this.links.reveal(toolCallId);
  }

  /** Sent now, or queued behind the running turn (the first message here starts the agent). */
  sendPrompt(text: string, mentions: readonly MentionView[] = [], images: readonly PromptImageView[] = []): Promise<void> {
    this.use.markUsed();
    return this.prompts.send(this.tabs.active, { text, mentions, images });
  }

  /** The user stopped the agent; queued messages wait for them. */
  cancelTurn(): Promise<void> {
    return this.prompts.cancel(this.tabs.active);
  }

  /** Another agent for the active conversation: an empty tab switches, a used one opens a new tab. */
  async selectAgent(agentId: string): Promise<void> {
    this.agents.reload();
    const agent = this.agents.find(agentId);
    if (!agent) return;
    this.use.markUsed();
    if (agentId === this.tabs.active.agent.id && this.currentSession.connectionView.phase !== 'failed') return;
    this.actions.rememberAgent(agentId);
    await this.tabs.openInPlaceOfEmpty(agent).session.start();
  }

  /** A fresh conversation, in a new tab, with the active tab's agent. */
  newSession(): Promise<void> {
    this.use.markUsed();
    return this.openConversation();
  }

  /**
   * The workspace was trusted: where the user has used Tandem a conversation starts, as if they
   * had asked for one; elsewhere the restricted conversation gives way to an idle one.
   */
  async trustGranted(): Promise<void> {
    if (this.use.used) return this.openConversation();
    const agent = this.activeAgentNow();
    if (agent) this.tabs.openInPlaceOfEmpty(agent);
  }

  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'showLog':
        return this.actions.showLog();
      case 'showTraffic':
        return this.actions.showTraffic();
      case 'restartAgent':
        this.use.markUsed();
        // A restart after fixing the settings (say, an agent's command) must pick the fix up.
        this.agents.reload();
        if (this.currentSession.connectionView.phase === 'failed') void this.tabs.replaceActive().session.start();
        else await this.currentSession.restart();
        return;
      case 'newSession':
        return this.newSession();
      case 'budgetSettings':
        return this.actions.openSettings?.('tandem.budget');
      default:
        assertNever(action, 'panel action');
    }
  }

  /** Tandem: Redo Restore: what taking back the last restore would change, in the panel. */
  previewRedoRestore(): Promise<void> {
    return this.checkpoints?.previewRedo() ?? Promise.resolve();
  }

  /** The agent settings changed. */
  reloadAgents(): void {
    this.agents.reload();
    this.view.send({ type: 'agentsChanged', agents: this.agents.choices(), selectedAgentId: this.tabs.active.agent.id });
    void this.lookUpInstalled();
  }

  /** The picker says which agents are installed once the lookup, which never holds the host's thread, answers. */
  private async lookUpInstalled(): Promise<void> {
    if (await this.agents.lookUpInstalled(scopeCwd(this.currentSession.workspace) ?? process.cwd())) {
      this.view.send({ type: 'agentsChanged', agents: this.agents.choices(), selectedAgentId: this.tabs.active.agent.id });
    }
  }

  dispose(): void {
    this.saver.saveNow();
    this.subscriptions.dispose();
    this.tabs.dispose();
    this.view.dispose();
    this.conversation.dispose();
    this.waitingChanged.dispose();
  }

  private async openConversation(): Promise<void> {
    const agent = this.activeAgentNow();
    if (agent) await this.tabs.open(agent).session.start();
  }

  /** The active tab's agent as the settings have it now (or the first one, if it left them). */
  private activeAgentNow(): AgentDefinition | undefined {
    this.agents.reload();
    return this.agents.findOrFirst(this.tabs.active.agent.id);
  }

  /** Every webview message, each to the part of the panel it concerns. */
  private messageHandlers(edits: ForkAndRename): MessageHandlers {
    const conversation = (message: ConversationMessage) => this.conversation.handle(message);
    return {
      ...this.tabs.handlers,
      ...this.history.handlers,
      ...edits.handlers,
      ...this.links.handlers,
      ...this.view.handlers,
      setSessionOption: conversation,
      setFollowAgent: conversation,
      requestMentions: conversation,
      revokeGrant: conversation,
      copyText: conversation,
      ready: () => {
        this.view.attach();
        this.links.viewReady();
        this.checkpoints?.refresh();
        if (this.use.used && this.currentSession.connectionView.phase === 'idle') void this.currentSession.start();
      },
      sendPrompt: (message) => this.sendPrompt(message.text, message.mentions ?? [], message.images ?? []),
      cancelTurn: () => this.cancelTurn(),
      retryMessage: (message) => {
        const text = this.tabs.active.session.thread.takeInterrupted(message.entryId);
        return text === null ? undefined : this.sendPrompt(text);
      },
      queueAction: (message) => this.prompts.act(this.tabs.active, message.action, message.id),
      selectAgent: (message) => this.selectAgent(message.agentId),
      runAction: (message) => this.runAction(message.action),
      terminalAction: (message) => runTerminalAction(this.currentSession.terminalDisplays, message.terminalId, message.action, {
        cancelTurn: () => this.cancelTurn(), revealTerminal: (terminalId) => this.tabs.revealTerminal(terminalId),
      }),
      openLink: (message) => this.actions.openLink(message.href),
      reviewAction: (message) => this.review?.act({ action: message.action, path: message.path, hunkId: message.hunkId }),
      reviewFeedback: (message) => this.reviewFeedback?.apply(message.change),
      checkpointAction: (message) => this.checkpoints?.handle(message.action),
      answerPermission: (message) => {
        this.currentSession.answerPermission(message.requestId, message.optionId);
      },
      answerElicitation: (message) => {
        this.currentSession.answerElicitation(message.requestId, message.action, message.values);
      },
      signIn: async (message) => {
        this.use.markUsed();
        await this.currentSession.signIn(message.methodId);
      },
    };
  }

  /** The active tab's events reach the webview; every tab's turn end advances its queue and is saved. */
  private tabListener(): TabListener {
    return {
      delta: (tab, delta) => {
        if (this.tabs.isActive(tab)) this.view.pushDelta(delta);
      },
      connection: (tab, connection) => {
        if (!this.tabs.isActive(tab)) return;
        this.view.flushDeltas();
        this.view.send({ type: 'connectionChanged', connection });
      },
      turn: (tab, turn) => {
        if (this.tabs.isActive(tab)) {
          this.view.flushDeltas();
          tab.terminalFeed.flush();
          this.conversation.turnChanged();
          this.view.send({ type: 'turnChanged', turn });
        }
        if (!turn.running) void this.prompts.turnEnded(tab);
        this.saver.schedule();
      },
      queue: (tab) => {
        if (this.tabs.isActive(tab)) this.view.send({ type: 'queueChanged', queue: tab.queue.view() });
      },
      terminals: (tab, changed, output) => {
        if (this.tabs.isActive(tab)) this.view.send({ type: 'terminalDeltas', changed, output });
      },
      activity: () => {
        this.view.tabsChanged();
        this.waitingChanged.fire();
      },
    };
  }
}
