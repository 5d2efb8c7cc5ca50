import type * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../acp/acpConnection';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ConnectionView, TurnView } from './connection';
import type { StopReasonView } from '../thread/entries';
import { ThreadModel } from '../thread/threadModel';
import { Emitter } from '../util/emitter';
import { taggedLogger, type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import type { Disposable } from '../util/disposable';
import { PermissionBroker } from '../permissions/permissionBroker';
import { ElicitationBroker } from '../elicitation/elicitationBroker';
import type { ElicitationAction } from '../elicitation/elicitationActions';
import type { HistoryCapabilities, OpenedSession, OpenTarget } from './sessionOpening';
import { TerminalDisplays } from '../terminals/terminalDisplays';
import type { SessionEnvironment } from './sessionEnvironment';
import { SessionOpener, type AgentAttachment, type ConversationPorts } from './sessionOpener';
import { ConnectionState } from './connectionState';
import { SignInFlow, type PromptText } from './signInFlow';
import { TurnState } from './turnState';
import { TurnCosts } from './turnCosts';
import type { EndedTurn } from './turnUsageEntry';
import { steerIntoThread, steeringSupported } from './steering';
import { OpeningUpdates } from './openingUpdates';
import { AgentWatch } from './agentWatch';
import { AgentSessions } from './agentSessions';
import { PromptTurns } from './promptTurns';

export type { SessionEnvironment } from './sessionEnvironment';
import { scopeCwd, type WorkspaceScope } from '../workspace/workspaceScope';

let nextSessionKey = 1;

/**
 * One conversation with one agent: coordinates the agent connection (opened by SessionOpener,
 * watched by AgentWatch), sign-in (SignInFlow), the agent's sessions (AgentSessions), the thread
 * and the pending permissions, and turns them into connection and turn state for the view.
 */
export class SessionController implements Disposable {
  readonly thread = new ThreadModel();
  /** Who made a change, for the notes that tell an agent what the user undid; a tab's id, which a reloaded window keeps. */
  readonly key: string;
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
  /** Every `session/update` of the open session, after the thread applied it: for the session's services (fs, terminals). */
  private readonly updateEmitter = new Emitter<acp.SessionUpdate>();
  readonly onConnectionChanged: ConnectionState['onChanged'];
  private readonly turns: TurnState;
  readonly onTurnChanged: TurnState['onChanged'];
  newSessionResponse: OpenedSession['response'] | null = null;
  /** Where this conversation works: its folders, review, checkpoints and editor services. */
  readonly workspace: WorkspaceScope | null;
  private readonly opening: OpeningUpdates;
  private readonly watch: AgentWatch;
  private readonly sessions: AgentSessions;
  private readonly prompts: PromptTurns;
  /** What its turns cost: the usage ledger and the user's budgets (the meter's warning). */
  readonly costs: TurnCosts;

  constructor(readonly agent: AgentDefinition, private readonly environment: SessionEnvironment, key?: string) {
    this.key = key ?? `session-${nextSessionKey++}`;
    this.log = taggedLogger(environment.logger, `session ${agent.id}`);
    this.opening = new OpeningUpdates(this.log);
    this.turns = new TurnState((stopReason, detail) => this.turnEnded(stopReason, detail), this.log);
    this.onTurnChanged = this.turns.onChanged;
    this.connection = new ConnectionState(agent.label, () => environment.trusted);
    this.onConnectionChanged = this.connection.onChanged;
    this.permissions.usePolicy(environment.permissionPolicy?.forAgent(agent.id) ?? null);
    this.workspace = environment.workspace(this.key);
    this.opener = new SessionOpener(agent, environment, this.workspace, {
      key: this.key, thread: this.thread, terminalDisplays: this.terminalDisplays, log: this.log, onUpdate: this.updateEmitter.event,
      onPermissionRequest: this.permissions.onRequested,
      // An agent that goes on after Stop ended its turn here (no answer within the grace) is still at work.
      promptUnderWay: () => this.turns.current !== null || this.prompts.awaitingAnswer,
      sessionKnown: (sessionId) => this.opening.release(sessionId).forEach((update) => this.applyUpdate(update)),
    });
    this.signInFlow = new SignInFlow(agent, { signIn: environment.signIn, apiKeys: environment.apiKeys, cwd: scopeCwd(this.workspace) }, this.log, {
      connectionPhase: () => this.connection.view.phase,
      show: (state) => this.connection.set(state),
      stopAgent: () => this.stopAgent(),
      start: () => this.start(),
      retry: (prompt) => this.prompts.retry(prompt),
    });
    const conversation = { agentLabel: agent.label, log: this.log, attached: () => this.attachment };
    this.watch = new AgentWatch({
      ...conversation, thread: this.thread, connection: this.connection,
      detach: () => this.detach(),
      requireSignIn: () => this.requireSignIn(null),
      endTurn: (message) => {
        if (this.turns.current) this.turns.finish(this.turns.current, 'error', message);
      },
    }, environment.startupTimeoutsMs);
    this.sessions = new AgentSessions({ ...conversation, workspaceRoot: scopeCwd(this.workspace), start: () => this.start(), notRunning: () => this.notRunning() });
    this.costs = new TurnCosts(environment, {
      agent: { id: agent.id, label: agent.label }, key: this.key, thread: this.thread, log: this.log,
      sessionId: () => this.attachment?.sessionId ?? null,
      project: () => scopeCwd(this.workspace),
      sessionResponse: () => this.newSessionResponse as EndedTurn['sessionResponse'],
      turnCostBefore: () => this.prompts.turnCostBefore(),
      cancel: () => this.cancel(),
    });
    this.prompts = new PromptTurns({
      ...conversation, thread: this.thread, turns: this.turns, budget: this.costs.budget ?? undefined,
      start: () => this.start(),
      // A failed start is explained above the thread, once: the turn's end does not say it again.
      notRunning: () => (this.connection.view.phase === 'failed' ? null : this.notRunning()),
      failedByAgent: (attachment) => this.watch.failedByAgent(attachment),
      requireSignIn: (refused) => this.requireSignIn(refused),
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

  /** The last `session/prompt` answer (its usage, for agents that send no `usage_update`). */
  get lastPromptResponse(): acp.PromptResponse | null {
    return this.prompts.lastResponse;
  }

  /** What this agent can do with earlier sessions (known once it was started). */
  get history(): HistoryCapabilities {
    return this.sessions.capabilities;
  }

  /** Spawns the agent and opens a session. Resolves false (with the reason shown) on failure. */
  start(): Promise<boolean> {
    if (this.connection.view.phase === 'ready') return Promise.resolve(true);
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** `notes` go to the agent after the user's text, each in a block of its own (e.g. what the user undid), not into the thread. */
  prompt(text: string, notes: readonly string[] = [], attachments: readonly acp.ContentBlock[] = []): Promise<void> {
    return this.prompts.send(text, notes, attachments);
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
    this.sessions.openNext(target);
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
    this.sessions.openNext({ kind: 'continue', sessionId });
  }

  /** Pages through the agent's own list of sessions for this workspace. */
  listAgentSessions(cursor: string | null = null): Promise<acp.ListSessionsResponse> {
    return this.sessions.list(cursor);
  }

  deleteAgentSession(sessionId: string): Promise<void> {
    return this.sessions.delete(sessionId);
  }

  /** Ends the open session on the agent's side (where it can), then stops the process. */
  async close(): Promise<void> {
    await this.sessions.closeOpen();
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
    this.watch.dispose();
    this.terminalDisplays.dispose();
    this.updateEmitter.dispose();
    this.permissions.dispose();
    this.costs.dispose();
  }

  private async open(): Promise<boolean> {
    if (!this.environment.trusted) return false;
    const found = await this.opener.launch();
    if ('problem' in found) {
      this.connection.fail(found.problem, found.notInstalled);
      return false;
    }
    const attachment = this.opener.attach(found.launch, this.conversationPorts());
    this.attachment = attachment;
    const progress = this.watch.watch(attachment);
    try {
      progress.begin('initialized');
      const init = await this.opener.initialize(attachment, this.signInFlow.agentAuth, (response) => {
        progress.noteAgent(response.agentInfo?.name, response.agentInfo?.version, response.protocolVersion);
        progress.begin('signedIn');
      });
      this.signInFlow.agentAuthSent();
      progress.begin('sessionReady');
      const session = await this.opener.open(attachment, init, this.sessions.next);
      progress.complete();
      this.sessions.opened();
      this.newSessionResponse = session.response;
      this.connection.set({ phase: 'ready', message: null, agentName: init.agentInfo?.title ?? this.agent.label });
      return true;
    } catch (error) {
      await this.watch.openFailed(attachment, error);
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

  private requireSignIn(refused: PromptText | null): Promise<void> {
    return this.signInFlow.require(this.attachment?.connection.initializeResponse?.authMethods ?? [], refused);
  }

  private onSessionUpdate(notification: acp.SessionNotification): void {
    const attachment = this.attachment;
    // Sent before the agent answered with the session's id: held until it does.
    if (attachment && attachment.sessionId === null && this.starting) return this.opening.hold(notification);
    // The host routes by session id; an update for a session this conversation left is stale.
    if (notification.sessionId !== attachment?.sessionId) return;
    this.applyUpdate(notification.update);
  }

  private applyUpdate(update: acp.SessionUpdate): void {
    this.thread.applyUpdate(update);
    this.terminalDisplays.observe(update);
    this.updateEmitter.fire(update);
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

  private notRunning(): string {
    return this.connection.view.message ?? 'The agent is not running.';
  }

  /** The session's part of a turn's end: no permission outlives it, nor a terminal of a failed turn. */
  private turnEnded(stopReason: StopReasonView, detail: string | null): void {
    this.permissions.cancelAll();
    if (stopReason === 'cancelled' || stopReason === 'error') this.terminalDisplays.endAgentTerminals();
    this.thread.endTurn(stopReason, detail);
    this.costs.turnEnded(stopReason, this.prompts.turnAccount);
  }
}
