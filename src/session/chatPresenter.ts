import type { AgentDefinition } from '../agents/agentConfig';
import type { HostToWebview, PanelAction, WebviewToHost } from '../protocol/messages';
import type { AgentChoiceView, PanelState } from '../protocol/viewModel';
import { assertNever } from '../util/assertNever';
import { DisposableStore, type Disposable } from '../util/disposable';
import { errorMessage } from '../util/logger';
import { DeltaBatcher } from './deltaBatcher';
import type { ReviewSource } from './reviewSource';
import { emptyReview } from '../protocol/reviewView';
import { SessionController, type SessionEnvironment } from './sessionController';
import type { TerminalAction } from '../protocol/terminalView';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import { TerminalFeed } from './terminalFeed';

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
}

/**
 * The host side of the chat panel: owns the current session, answers the webview's intents,
 * and streams state to it as a snapshot on `ready` followed by small deltas.
 */
export class ChatPresenter implements Disposable {
  private agents: AgentDefinition[];
  private selectedAgentId: string;
  private session: SessionController;
  private sessionSubscriptions = new DisposableStore();
  private readonly batcher: DeltaBatcher;
  private viewReady = false;
  private reviewSubscription: Disposable | null = null;
  private terminalFeed: TerminalFeed | null = null;
  private terminalMirror: TerminalMirrorHandle | null = null;

  constructor(
    private readonly loadAgents: () => AgentDefinition[],
    selectedAgentId: string,
    private readonly environment: SessionEnvironment,
    private readonly post: (message: HostToWebview) => void,
    private readonly actions: EditorActions,
    private readonly review: ReviewSource | null = null,
  ) {
    const agents = loadAgents();
    this.agents = agents;
    this.selectedAgentId = agents.some((agent) => agent.id === selectedAgentId) ? selectedAgentId : (agents[0]?.id ?? '');
    this.batcher = new DeltaBatcher((deltas) => this.send({ type: 'threadDeltas', deltas }));
    this.session = this.createSession();
    if (review) this.reviewSubscription = review.onDidChange(() => this.send({ type: 'reviewChanged', review: review.view() }));
  }

  get currentSession(): SessionController {
    return this.session;
  }

  state(): PanelState {
    return {
      agents: this.agentChoices(),
      selectedAgentId: this.selectedAgentId,
      connection: this.session.connectionView,
      turn: this.session.turnView,
      sessionTitle: this.session.thread.facts.title,
      entries: this.session.thread.snapshot(),
      review: this.review?.view() ?? emptyReview,
      terminals: this.session.terminalDisplays.snapshot(),
    };
  }

  /** The webview went away (hidden without retained context, or reloaded). */
  detachView(): void {
    this.viewReady = false;
    this.batcher.discard();
    this.terminalFeed?.discard();
  }

  async handle(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.viewReady = true;
        this.batcher.discard();
        this.terminalFeed?.discard();
        this.post({ type: 'snapshot', state: this.state() });
        if (this.session.connectionView.phase === 'idle') void this.session.start();
        return;
      case 'sendPrompt':
        return this.sendPrompt(message.text);
      case 'cancelTurn':
        return this.session.cancel();
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
      default:
        assertNever(message, 'webview message');
    }
  }

  async sendPrompt(text: string): Promise<void> {
    if (this.session.turnView.running) return;
    try {
      await this.session.prompt(text, this.review?.takePromptNotes() ?? []);
    } catch (error) {
      this.session.thread.addNotice('error', `The message could not be sent: ${errorMessage(error)}`, ['showLog']);
    }
  }

  async selectAgent(agentId: string): Promise<void> {
    // Settings may have changed since the list was read; a session always starts from the current ones.
    this.agents = this.loadAgents();
    if (!this.agents.some((agent) => agent.id === agentId)) return;
    if (agentId === this.selectedAgentId && this.session.connectionView.phase !== 'failed') return;
    this.selectedAgentId = agentId;
    this.actions.rememberAgent(agentId);
    this.replaceSession();
    this.send({ type: 'agentsChanged', agents: this.agentChoices(), selectedAgentId: agentId });
    await this.session.start();
  }

  /** A fresh conversation with the selected agent. */
  async newSession(): Promise<void> {
    this.agents = this.loadAgents();
    this.replaceSession();
    await this.session.start();
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
        if (this.session.connectionView.phase === 'failed') return this.newSession();
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
        if (!displays.stop(terminalId) && displays.view(terminalId)?.running) await this.session.cancel();
        return;
      case 'reveal':
        this.terminalMirror?.reveal(terminalId);
        return;
      default:
        assertNever(action, 'terminal action');
    }
  }

  /** The agent settings changed. */
  reloadAgents(): void {
    const agents = this.loadAgents();
    this.agents = agents;
    if (!agents.some((agent) => agent.id === this.selectedAgentId)) {
      this.selectedAgentId = agents[0]?.id ?? '';
      this.replaceSession();
    }
    this.send({ type: 'agentsChanged', agents: this.agentChoices(), selectedAgentId: this.selectedAgentId });
  }

  dispose(): void {
    this.reviewSubscription?.dispose();
    this.sessionSubscriptions.dispose();
    this.session.dispose();
    this.batcher.dispose();
  }

  private replaceSession(): void {
    this.sessionSubscriptions.dispose();
    this.session.dispose();
    this.batcher.discard();
    this.session = this.createSession();
    this.send({ type: 'snapshot', state: this.state() });
  }

  private createSession(): SessionController {
    const agent = this.agents.find((candidate) => candidate.id === this.selectedAgentId);
    if (!agent) throw new Error('No agent is configured.');
    const session = new SessionController(agent, this.environment);
    const subscriptions = new DisposableStore();
    subscriptions.add(session.thread.onDelta((delta) => {
      if (this.viewReady) this.batcher.push(delta);
    }));
    subscriptions.add(session.onConnectionChanged((connection) => {
      this.batcher.flush();
      this.send({ type: 'connectionChanged', connection });
    }));
    subscriptions.add(session.onTurnChanged((turn) => {
      this.batcher.flush();
      this.terminalFeed?.flush();
      this.send({ type: 'turnChanged', turn });
      this.send({ type: 'sessionTitleChanged', title: session.thread.facts.title });
    }));
    const feed = subscriptions.add(new TerminalFeed(session.terminalDisplays, (changed, output) => this.send({ type: 'terminalDeltas', changed, output })));
    this.terminalFeed = feed;
    this.terminalMirror = this.actions.mirrorTerminals ? subscriptions.add(this.actions.mirrorTerminals(session.terminalDisplays)) : null;
    this.sessionSubscriptions = subscriptions;
    return session;
  }

  private send(message: HostToWebview): void {
    if (this.viewReady) this.post(message);
  }

  private agentChoices(): AgentChoiceView[] {
    return this.agents.map((agent) => ({ id: agent.id, label: agent.label, description: agent.description }));
  }
}
