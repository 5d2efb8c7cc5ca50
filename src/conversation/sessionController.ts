import type * as acp from '@agentclientprotocol/sdk';
import { describeConnectionFailure, sentByAgent, type AcpConnection, type ConnectionFailure } from '../acp/acpConnection';
import type { AgentExit } from '../acp/agentProcess';
import { describeExit } from '../acp/agentExit';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ConnectionView, StopReasonView, TurnView } from '../contract/viewModel';
import { ThreadModel } from '../thread/threadModel';
import { Emitter } from '../util/emitter';
import { errorMessage, taggedLogger, type Logger } from '../util/logger';
import type { Disposable } from '../util/disposable';
import { PermissionBroker } from '../permissions/permissionBroker';
import { ElicitationBroker } from '../elicitation/elicitationBroker';
import type { ElicitationAction } from '../contract/elicitationView';
import { historyCapabilities, type HistoryCapabilities, type OpenedSession, type OpenTarget } from './sessionOpening';
import { TerminalDisplays } from '../terminals/terminalDisplays';
import { isAuthRequired } from './signIn';
import { AgentExitedError, exitedSoon } from '../acp/agentExit';
import type { SessionEnvironment } from './sessionEnvironment';
import { SessionOpener, type AgentAttachment, type ConversationPorts } from './sessionOpener';
import { ConnectionState } from './connectionState';
import { SignInFlow, type PromptText } from './signInFlow';
import { TurnState, type Turn } from './turnState';
import { steerIntoThread, steeringSupported } from './steering';
import { bannerSentence, StartupProgress, STARTUP_TIMEOUTS_MS, stallSentence } from './startupProgress';
import { OpeningUpdates } from './openingUpdates';
import type { StartupStage } from '../contract/startupView';

export type { SessionContext, SessionEnvironment, SessionServices } from './sessionEnvironment';

let nextSessionKey = 1;

/**
 * One conversation with one agent: coordinates the agent connection (opened by SessionOpener),
 * sign-in (SignInFlow), the thread and the pending permissions, and turns them into connection
 * and turn state for the view.
 */
export class SessionController implements Disposable {
  readonly thread = new ThreadModel();
  readonly key = `session-${nextSessionKey++}`;
  /** Outlives agent connections: a card keeps its command's output after a restart. */
  readonly terminalDisplays = new TerminalDisplays();
  private readonly permissions = new PermissionBroker(this.thread);
  private readonly elicitations = new ElicitationBroker(this.thread);
  private readonly log: Logger;
  private readonly opener: SessionOpener;
  private readonly signInFlow: SignInFlow;
  /** The agent process and connection this conversation uses, possibly with other conversations. */
  private attachment: AgentAttachment | null = null;
  private starting: Promise<boolean> | null = null;
  private readonly connection: ConnectionState;
  private readonly updateEmitter = new Emitter<acp.SessionUpdate>();
  readonly onConnectionChanged: ConnectionState['onChanged'];
  private readonly turns: TurnState;
  readonly onTurnChanged: TurnState['onChanged'];
  /** Every `session/update` of the open session, after the thread applied it. */
  readonly onAppliedUpdate = this.updateEmitter.event;
  /** The last `session/prompt` answer (its usage, for agents that send no `usage_update`). */
  lastPromptResponse: acp.PromptResponse | null = null;
  newSessionResponse: OpenedSession['response'] | null = null;
  /** What the next start opens; reset to a new session once used. */
  private openTarget: OpenTarget = { kind: 'new' };
  /** The last start, stage by stage: its deadlines while it runs, and what the banner says after. */
  private startup: StartupProgress | null = null;
  private readonly startupTimeouts: Readonly<Record<StartupStage, number>>;
  private readonly opening: OpeningUpdates;

  constructor(readonly agent: AgentDefinition, private readonly environment: SessionEnvironment) {
    this.log = taggedLogger(environment.logger, `session ${agent.id}`);
    this.opening = new OpeningUpdates(this.log);
    this.startupTimeouts = { ...STARTUP_TIMEOUTS_MS, ...environment.startupTimeoutsMs };
    this.turns = new TurnState((stopReason, detail) => this.turnEnded(stopReason, detail), this.log);
    this.onTurnChanged = this.turns.onChanged;
    this.connection = new ConnectionState(agent.label, () => environment.trusted);
    this.onConnectionChanged = this.connection.onChanged;
    this.permissions.usePolicy(environment.permissionPolicy?.forAgent(agent.id) ?? null);
    this.opener = new SessionOpener(agent, environment, {
      key: this.key, thread: this.thread, terminalDisplays: this.terminalDisplays, log: this.log, onUpdate: this.updateEmitter.event,
      onPermissionRequest: this.permissions.onRequested,
      sessionKnown: (sessionId) => this.opening.release(sessionId).forEach((update) => this.applyUpdate(update)),
    });
    this.signInFlow = new SignInFlow(agent, environment, this.log, {
      connectionPhase: () => this.connection.view.phase,
      show: (state) => this.connection.set(state),
      stopAgent: () => this.stopAgent(),
      start: () => this.start(),
      retry: (prompt) => this.retry(prompt),
    });
  }

  /** The open agent connection and session, for requests beside prompts (config options, modes, models). */
  get live(): { connection: AcpConnection; sessionId: string } | null {
    const attachment = this.attachment;
    return attachment?.sessionId ? { connection: attachment.connection, sessionId: attachment.sessionId } : null;
  }

  get connectionView(): ConnectionView {
    return this.connection.view;
  }

  get turnView(): TurnView {
    return this.turns.view;
  }

  get agentPid(): number | undefined {
    return this.attachment?.process.pid;
  }

  get currentSessionId(): string | null {
    return this.attachment?.sessionId ?? null;
  }

  /** What this agent can do with earlier sessions (known once it was started). */
  get history(): HistoryCapabilities {
    const connection = this.attachment?.connection;
    return historyCapabilities(connection?.initializeResponse ?? null, connection?.rawSessionCapabilities ?? null);
  }

  /** Spawns the agent and opens a session. Resolves false (with the reason shown) on failure. */
  start(): Promise<boolean> {
    if (this.connection.view.phase === 'ready') return Promise.resolve(true);
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** `notes` go to the agent ahead of the user's text (e.g. what the user undid), not into the thread. */
  async prompt(text: string, notes: readonly string[] = [], attachments: readonly acp.ContentBlock[] = []): Promise<void> {
    if (this.turns.current) throw new Error('A turn is already running.');
    this.thread.addUserMessage(text);
    await this.runTurn({ text, notes }, attachments);
  }

  /** A turn runs on an agent that takes messages into it (`_session/steering`). */
  get canSteer(): boolean {
    return this.turns.current !== null && this.live !== null && steeringSupported(this.attachment?.connection.initializeResponse ?? null);
  }

  /** Sends a message into the running turn instead of after it; false when it is still the caller's to send. */
  async steer(text: string, attachments: readonly acp.ContentBlock[] = []): Promise<boolean> {
    const live = this.live;
    if (!live || !this.canSteer) return false;
    return steerIntoThread(live, text, attachments, { thread: this.thread, log: this.log, agentLabel: this.agent.label });
  }

  /** The Stop button: tell the agent, answer open permissions `cancelled`, end the turn. */
  async cancel(): Promise<void> {
    const turn = this.turns.current;
    if (!turn) return;
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    this.terminalDisplays.stopAll();
    const live = this.live;
    if (live) await live.connection.cancel(live.sessionId).catch((error: unknown) => this.log.warn(`session/cancel failed: ${errorMessage(error)}`));
    this.turns.endAfterGrace(turn);
  }

  answerElicitation(requestId: string, action: ElicitationAction, values: Record<string, unknown> = {}): boolean {
    return this.elicitations.answer(requestId, action, values);
  }

  answerPermission(requestId: string, optionId: string | null): boolean {
    return this.permissions.answer(requestId, optionId);
  }

  /** Stops the agent process and forgets the session; the thread stays. */
  stopAgent(): Promise<void> {
    return this.detach();
  }

  /**
   * Opens an earlier session of this agent: `load` replays it into the thread, `resume`
   * reconnects while the thread shows what Tandem kept. The agent is (re)started for it.
   */
  async openExisting(target: Exclude<OpenTarget, { kind: 'new' } | { kind: 'continue' }>): Promise<boolean> {
    await this.stopAgent();
    this.openTarget = target;
    this.connection.reset();
    return this.start();
  }

  /** The user chose a way to sign in: run its login (or let the agent do it), reconnect, retry. */
  signIn(methodId: string): Promise<boolean> {
    return this.signInFlow.signIn(methodId);
  }

  /** Signs out: the agent's own logout where it offers one, and the keys Tandem kept for it. */
  async signOut(): Promise<void> {
    const connection = this.attachment?.connection;
    if (connection?.initializeResponse?.agentCapabilities?.auth?.logout) {
      await connection.logout().catch((error: unknown) => this.log.warn(`logout failed: ${errorMessage(error)}`));
    }
    await this.environment.apiKeys?.forget(this.agent.id);
    await this.stopAgent();
    this.connection.set({ phase: 'idle', message: `Signed out of ${this.agent.label}.`, agentName: this.agent.label });
  }

  /** The next start continues this earlier session, whose transcript the thread already shows. */
  continueLater(sessionId: string): void {
    this.openTarget = { kind: 'continue', sessionId };
  }

  /** Pages through the agent's own list of sessions for this workspace. */
  async listAgentSessions(cursor: string | null = null): Promise<acp.ListSessionsResponse> {
    const ready = await this.start();
    const connection = this.attachment?.connection;
    if (!ready || !connection || !this.environment.workspaceRoot) throw new Error(this.connection.view.message ?? 'The agent is not running.');
    if (!this.history.list) throw new Error(`${this.agent.label} cannot list its sessions.`);
    return connection.listSessions(this.environment.workspaceRoot, cursor);
  }

  async deleteAgentSession(sessionId: string): Promise<void> {
    const connection = this.attachment?.connection;
    if (!connection || !this.history.delete) throw new Error(`${this.agent.label} cannot delete sessions.`);
    await connection.deleteSession(sessionId);
  }

  /** Ends the open session on the agent's side (where it can), then stops the process. */
  async close(): Promise<void> {
    const live = this.live;
    if (live && this.history.close) {
      await live.connection.closeSession(live.sessionId).catch((error: unknown) => this.log.warn(`session/close failed: ${errorMessage(error)}`));
    }
    await this.stopAgent();
  }

  async restart(): Promise<boolean> {
    await this.stopAgent();
    if (this.turns.current) this.turns.finish(this.turns.current, 'cancelled', null);
    this.connection.reset();
    return this.start();
  }

  dispose(): void {
    this.connection.dispose();
    void this.stopAgent();
    this.turns.dispose();
    this.startup?.dispose();
    this.terminalDisplays.dispose();
    this.updateEmitter.dispose();
    this.permissions.dispose();
  }

  private async open(): Promise<boolean> {
    if (!this.environment.trusted) return false;
    const found = await this.opener.launch();
    if ('problem' in found) {
      this.connection.fail(found.problem);
      return false;
    }
    const attachment = this.opener.attach(found.launch, this.conversationPorts());
    this.attachment = attachment;
    const progress = this.watchStartup(attachment);
    void attachment.process.exited.then((exit) => this.onProcessExit(attachment, exit));
    void attachment.connection.failed.then((failure) => this.onConnectionFailed(attachment, failure));
    try {
      progress.begin('initialized');
      const init = await this.opener.initialize(attachment, this.signInFlow.agentAuth, (response) => {
        progress.noteAgent(response.agentInfo?.name, response.agentInfo?.version, response.protocolVersion);
        progress.begin('signedIn');
      });
      this.signInFlow.agentAuthSent();
      progress.begin('sessionReady');
      const session = await this.opener.open(attachment, init, this.openTarget);
      progress.complete();
      this.openTarget = { kind: 'new' };
      this.newSessionResponse = session.response;
      this.connection.set({ phase: 'ready', message: null, agentName: init.agentInfo?.title ?? this.agent.label });
      return true;
    } catch (error) {
      await this.openFailed(attachment, error);
      return false;
    }
  }

  private conversationPorts(): ConversationPorts {
    return {
      sessionUpdate: (notification) => this.onSessionUpdate(notification),
      requestPermission: (params, signal) => this.permissions.request(params, signal),
      elicitation: { create: (params, signal) => this.elicitations.request(params, signal), complete: (params) => this.elicitations.complete(params.elicitationId) },
    };
  }

  private async openFailed(attachment: AgentAttachment, error: unknown): Promise<void> {
    // Stopped (or replaced) while opening: whoever did that said what happened.
    if (this.attachment !== attachment) return;
    if (isAuthRequired(error)) {
      this.startup?.waitForUser();
      return this.requireSignIn(null);
    }
    this.startup?.fail();
    const failedByAgent = this.failedByAgent(attachment);
    if (failedByAgent) return failedByAgent;
    const exit = error instanceof AgentExitedError ? error.exit : await exitedSoon(attachment.process);
    const message = exit ? describeExit(this.agent.label, exit) : `${this.agent.label} could not open a session: ${errorMessage(error)}`;
    this.log.error(message);
    const tail = exit?.stderrTail ?? attachment.process.stderrTail();
    await this.stopAgent();
    this.connection.set({ phase: 'failed', message, agentName: this.agent.label, startup: this.startup?.view(bannerSentence(this.agent.label, message, exit), tail) });
  }

  /** A new start: its stages, each with a deadline that stops the agent with a sentence when it passes. */
  private watchStartup(attachment: AgentAttachment): StartupProgress {
    this.startup?.dispose();
    const { command, args } = attachment.launch;
    this.startup = new StartupProgress({ label: this.agent.label, command, args }, {
      stalled: (stage) => this.stalled(attachment, stage),
      began: (view) => this.connection.set({ phase: 'starting', message: `Starting ${this.agent.label}…`, agentName: this.agent.label, startup: view }),
    }, this.startupTimeouts);
    return this.startup;
  }

  private stalled(attachment: AgentAttachment, stage: StartupStage): void {
    if (this.attachment !== attachment) return;
    const message = stallSentence(this.agent.label, stage, this.startupTimeouts);
    this.log.error(message);
    const tail = attachment.process.stderrTail();
    void this.detach();
    this.connection.set({ phase: 'failed', message, agentName: this.agent.label, startup: this.startup?.view(message, tail) });
  }

  /** Runs one turn of a prompt that is already in the thread. */
  private async runTurn(prompt: PromptText, attachments: readonly acp.ContentBlock[]): Promise<void> {
    const turn = this.turns.begin();
    const ready = await this.start();
    const attachment = this.attachment;
    const sessionId = attachment?.sessionId;
    if (!ready || !attachment || !sessionId) {
      this.turns.finish(turn, 'error', this.connection.view.message ?? 'The agent is not running.');
      return;
    }
    try {
      const blocks: acp.ContentBlock[] = prompt.notes.map((note) => ({ type: 'text', text: note }));
      blocks.push({ type: 'text', text: prompt.text }, ...attachments);
      const response = await attachment.connection.prompt(sessionId, blocks);
      this.lastPromptResponse = response;
      this.turns.finish(turn, response.stopReason, null);
    } catch (error) {
      await this.promptFailed(turn, attachment, error, prompt);
    }
  }

  private async promptFailed(turn: Turn, attachment: AgentAttachment, error: unknown, prompt: PromptText): Promise<void> {
    if (isAuthRequired(error) && !turn.ended) {
      this.turns.finish(turn, 'error', `${this.agent.label} needs you to sign in first.`);
      return this.requireSignIn(prompt);
    }
    const failedByAgent = this.failedByAgent(attachment);
    if (failedByAgent) return failedByAgent;
    // A dead agent closes the connection a moment before its exit is seen: report the exit.
    if (await exitedSoon(attachment.process)) return;
    if (turn.ended) return;
    const message = errorMessage(error);
    this.log.error(`session/prompt failed: ${message}`);
    this.turns.finish(turn, 'error', message);
  }

  /** After sign-in: the refused prompt once more, unless the user started another turn meanwhile. */
  private async retry(prompt: PromptText): Promise<void> {
    if (!this.turns.current) await this.runTurn(prompt, []);
  }

  private requireSignIn(refused: PromptText | null): Promise<void> {
    return this.signInFlow.require(this.attachment?.connection.initializeResponse?.authMethods ?? [], refused);
  }

  private onSessionUpdate(notification: acp.SessionNotification): void {
    const attachment = this.attachment;
    // Sent before the agent answered with the session's id: held until it does.
    if (attachment && attachment.sessionId === null && this.starting) return this.opening.hold(notification);
    // A shared process's updates reach every session on it; each keeps its own.
    if (notification.sessionId !== attachment?.sessionId) return;
    this.applyUpdate(notification.update);
  }

  private applyUpdate(update: acp.SessionUpdate): void {
    this.thread.applyUpdate(update);
    this.terminalDisplays.observe(update);
    this.updateEmitter.fire(update);
  }

  private onProcessExit(attachment: AgentAttachment, exit: AgentExit): void {
    if (!exit.requested) this.lose(attachment, describeExit(this.agent.label, exit), exit);
  }

  /** When a frame of the agent broke the connection, what waited on it ends with that: the handling, else null. */
  private failedByAgent(attachment: AgentAttachment): Promise<void> | null {
    const failure = attachment.connection.failure;
    return failure && sentByAgent(failure) ? this.onConnectionFailed(attachment, failure) : null;
  }

  private async onConnectionFailed(attachment: AgentAttachment, failure: ConnectionFailure): Promise<void> {
    // An agent that is going away ends its connection a moment before its exit, which says what happened.
    if (!sentByAgent(failure) && (await exitedSoon(attachment.process))) return;
    this.lose(attachment, describeConnectionFailure(this.agent.label, failure));
  }

  /**
   * The agent can no longer be reached (it exited, or its connection failed while it runs on):
   * the turn ends with why, the agent is let go of (stopped with its last conversation), and
   * Restart is offered, as for a crash.
   */
  private lose(attachment: AgentAttachment, message: string, exit: AgentExit | null = null): void {
    if (this.connection.isDisposed || this.attachment !== attachment) return;
    this.log.error(message);
    const tail = exit?.stderrTail ?? attachment.process.stderrTail();
    this.startup?.fail();
    void this.detach();
    if (this.turns.current) this.turns.finish(this.turns.current, 'error', message);
    this.thread.addNotice('error', message, ['showLog', 'restartAgent']);
    this.connection.set({ phase: 'exited', message, agentName: this.agent.label, startup: this.startup?.view(bannerSentence(this.agent.label, message, exit), tail) });
  }

  /**
   * The one way this conversation lets go of its agent, whether the user stopped it or it
   * exited: open permissions are answered, the services end, the connection is forgotten, and
   * the process stops with the last conversation on it.
   */
  private async detach(): Promise<void> {
    const attachment = this.attachment;
    this.attachment = null;
    this.permissions.cancelAll();
    await attachment?.release();
  }

  /** The session's part of a turn's end: no permission outlives it, nor a terminal of a failed turn. */
  private turnEnded(stopReason: StopReasonView, detail: string | null): void {
    this.permissions.cancelAll();
    if (stopReason === 'cancelled' || stopReason === 'error') this.terminalDisplays.endAgentTerminals();
    this.thread.endTurn(stopReason, detail);
  }
}
