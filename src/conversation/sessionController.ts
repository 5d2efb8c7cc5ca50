import type * as acp from '@agentclientprotocol/sdk';
import { AcpConnection } from '../acp/acpConnection';
import { describeExit, type AgentExit } from '../acp/agentProcess';
import type { AgentChannel } from '../acp/agentChannel';
import { findExecutable } from '../acp/commandLookup';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ConnectionView, StopReasonView, TurnView } from '../contract/viewModel';
import { ThreadModel } from '../thread/threadModel';
import { Emitter } from '../util/emitter';
import { errorMessage, taggedLogger, type Logger } from '../util/logger';
import { DisposableStore, type Disposable } from '../util/disposable';
import { PermissionBroker } from '../permissions/permissionBroker';
import { ElicitationBroker } from '../elicitation/elicitationBroker';
import type { ElicitationAction } from '../contract/elicitationView';
import { historyCapabilities, noteContinuation, openSession, resolveContinue, type HistoryCapabilities, type OpenedSession, type OpenTarget } from './sessionOpening';
import { serversForAgent } from '../agents/mcpServers';
import { TerminalDisplays } from '../terminals/terminalDisplays';
import { apiKeyVariable, isAuthRequired, loginCommand, signInMethods } from './signIn';
import { initializeAgent } from './agentInitialization';
import { AgentExitedError, errorDetails, exitedSoon, raceExit } from '../acp/agentExit';
import { hostFor, type AgentHost, type HostedSession } from '../acp/agentHost';
import { applyAgentDefaults } from './agentDefaults';
import type { SessionContext, SessionEnvironment } from './sessionEnvironment';

export type { SessionContext, SessionEnvironment, SessionServices } from './sessionEnvironment';

let nextSessionKey = 1;

/** If the agent never answers a cancelled prompt, the turn still ends for the user. */
const CANCEL_GRACE_MS = 5000;

/**
 * One conversation with one agent: owns the agent process, the ACP connection, the thread
 * and the pending permissions, and turns them into connection and turn state for the view.
 */
export class SessionController implements Disposable {
  readonly thread = new ThreadModel();
  readonly key = `session-${nextSessionKey++}`;
  /** Outlives agent connections: a card keeps its command's output after a restart. */
  readonly terminalDisplays = new TerminalDisplays();
  /** Set while the agent waits for the user to sign in; a prompt it refused is retried after. */
  private signInState: { methods: acp.AuthMethod[]; retryPrompt: { text: string; notes: readonly string[] } | null } | null = null;
  private retryingPrompt = false;
  /** An agent-handled auth method the user picked, sent with `authenticate` on the next start. */
  private chosenAgentAuth: string | null = null;
  private readonly permissions = new PermissionBroker(this.thread);
  private readonly elicitations = new ElicitationBroker(this.thread);
  private readonly log: Logger;
  private process: AgentChannel | null = null;
  private connection: AcpConnection | null = null;
  /** The agent process and connection this session uses, possibly with other sessions. */
  private host: AgentHost | null = null;
  private hosted: HostedSession | null = null;
  private connectionServices = new DisposableStore();
  private sessionId: string | null = null;
  private starting: Promise<boolean> | null = null;
  private activeTurn: { cancelTimer: NodeJS.Timeout | null; ended: boolean } | null = null;
  private disposed = false;
  private connectionState: ConnectionView;
  private readonly connectionEmitter = new Emitter<ConnectionView>();
  private readonly turnEmitter = new Emitter<TurnView>();
  private readonly updateEmitter = new Emitter<acp.SessionUpdate>();
  readonly onConnectionChanged = this.connectionEmitter.event;
  readonly onTurnChanged = this.turnEmitter.event;
  /** Every `session/update` of the open session, after the thread applied it. */
  readonly onAppliedUpdate = this.updateEmitter.event;
  /** The last `session/prompt` answer (its usage, for agents that send no `usage_update`). */
  lastPromptResponse: acp.PromptResponse | null = null;
  newSessionResponse: OpenedSession['response'] | null = null;
  /** What the next start opens; reset to a new session once used. */
  private openTarget: OpenTarget = { kind: 'new' };

  constructor(readonly agent: AgentDefinition, private readonly environment: SessionEnvironment) {
    this.log = taggedLogger(environment.logger, `session ${agent.id}`);
    this.connectionState = environment.trusted
      ? { phase: 'idle', message: null, agentName: agent.label }
      : { phase: 'restricted', message: 'Tandem does not start agents in Restricted Mode: trust this workspace to use one.', agentName: agent.label };
    this.permissions.usePolicy(environment.permissionPolicy?.forAgent(agent.id) ?? null);
  }

  /** The open agent connection and session, for requests beside prompts (config options, modes, models). */
  get live(): { connection: AcpConnection; sessionId: string } | null {
    return this.connection && this.sessionId ? { connection: this.connection, sessionId: this.sessionId } : null;
  }

  get connectionView(): ConnectionView {
    return this.connectionState;
  }

  get turnView(): TurnView {
    return { running: this.activeTurn !== null };
  }

  get agentPid(): number | undefined {
    return this.process?.pid;
  }

  /** Spawns the agent and opens a session. Resolves false (with the reason shown) on failure. */
  start(): Promise<boolean> {
    if (this.connectionState.phase === 'ready') return Promise.resolve(true);
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** `notes` go to the agent ahead of the user's text (e.g. what the user undid), not into the thread. */
  async prompt(text: string, notes: readonly string[] = [], attachments: readonly acp.ContentBlock[] = []): Promise<void> {
    if (this.activeTurn) throw new Error('A turn is already running.');
    // A prompt retried after sign-in is already in the thread.
    if (this.retryingPrompt) this.retryingPrompt = false;
    else this.thread.addUserMessage(text);
    const turn = { cancelTimer: null as NodeJS.Timeout | null, ended: false };
    this.activeTurn = turn;
    this.turnEmitter.fire(this.turnView);
    const ready = await this.start();
    const connection = this.connection;
    const sessionId = this.sessionId;
    if (!ready || !connection || !sessionId) {
      this.finishTurn(turn, 'error', this.connectionState.message ?? 'The agent is not running.');
      return;
    }
    const agentProcess = this.process;
    try {
      const blocks: acp.ContentBlock[] = notes.map((note) => ({ type: 'text', text: note }));
      blocks.push({ type: 'text', text }, ...attachments);
      const response = await connection.prompt(sessionId, blocks);
      this.lastPromptResponse = response;
      this.finishTurn(turn, response.stopReason, null);
    } catch (error) {
      if (isAuthRequired(error) && !turn.ended) {
        this.finishTurn(turn, 'error', `${this.agent.label} needs you to sign in first.`);
        await this.requireSignIn({ text, notes });
        return;
      }
      // A dead agent closes the connection a moment before its exit is seen: report the exit.
      if (agentProcess && (await exitedSoon(agentProcess))) return;
      if (turn.ended) return;
      const message = errorMessage(error);
      this.log.error(`session/prompt failed: ${message}`);
      this.finishTurn(turn, 'error', message);
    }
  }

  /** The Stop button: tell the agent, answer open permissions `cancelled`, end the turn. */
  async cancel(): Promise<void> {
    const turn = this.activeTurn;
    if (!turn) return;
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    this.terminalDisplays.stopAll();
    if (this.connection && this.sessionId) {
      await this.connection.cancel(this.sessionId).catch((error: unknown) => this.log.warn(`session/cancel failed: ${errorMessage(error)}`));
    }
    turn.cancelTimer ??= setTimeout(() => {
      this.log.warn('The agent did not end the cancelled turn; ending it here.');
      this.finishTurn(turn, 'cancelled', null);
    }, CANCEL_GRACE_MS);
  }

  answerElicitation(requestId: string, action: ElicitationAction, values: Record<string, unknown> = {}): boolean {
    return this.elicitations.answer(requestId, action, values);
  }

  answerPermission(requestId: string, optionId: string | null): boolean {
    return this.permissions.answer(requestId, optionId);
  }

  /** Stops the agent process and forgets the session; the thread stays. */
  async stopAgent(): Promise<void> {
    const { process: agentProcess, host, hosted } = this;
    this.permissions.cancelAll();
    this.connectionServices.dispose();
    this.connection = null;
    this.sessionId = null;
    this.process = null;
    this.host = null;
    this.hosted = null;
    // Other sessions may share the process: it stops with the last of them.
    if (host && hosted && !host.detach(hosted)) return;
    if (host) this.environment.agentHosts?.remove(host);
    host?.connection.close();
    if (agentProcess) await agentProcess.stop();
  }

  get currentSessionId(): string | null {
    return this.sessionId;
  }

  /** What this agent can do with earlier sessions (known once it was started). */
  get history(): HistoryCapabilities {
    return historyCapabilities(this.connection?.initializeResponse ?? null, this.connection?.rawSessionCapabilities ?? null);
  }

  /**
   * Opens an earlier session of this agent: `load` replays it into the thread, `resume`
   * reconnects while the thread shows what Tandem kept. The agent is (re)started for it.
   */
  async openExisting(target: Exclude<OpenTarget, { kind: 'new' } | { kind: 'continue' }>): Promise<boolean> {
    await this.stopAgent();
    this.openTarget = target;
    this.setConnection({ phase: 'idle', message: null, agentName: this.agent.label });
    return this.start();
  }

  /** Signs out: the agent's own logout where it offers one, and the keys Tandem kept for it. */
  async signOut(): Promise<void> {
    if (this.connection?.initializeResponse?.agentCapabilities?.auth?.logout) {
      await this.connection.logout().catch((error: unknown) => this.log.warn(`logout failed: ${errorMessage(error)}`));
    }
    await this.environment.apiKeys?.forget(this.agent.id);
    await this.stopAgent();
    this.setConnection({ phase: 'idle', message: `Signed out of ${this.agent.label}.`, agentName: this.agent.label });
  }

  /** The next start continues this earlier session, whose transcript the thread already shows. */
  continueLater(sessionId: string): void {
    this.openTarget = { kind: 'continue', sessionId };
  }

  /** Pages through the agent's own list of sessions for this workspace. */
  async listAgentSessions(cursor: string | null = null): Promise<acp.ListSessionsResponse> {
    if (!(await this.start()) || !this.connection || !this.environment.workspaceRoot) throw new Error(this.connectionState.message ?? 'The agent is not running.');
    if (!this.history.list) throw new Error(`${this.agent.label} cannot list its sessions.`);
    return this.connection.listSessions(this.environment.workspaceRoot, cursor);
  }

  async deleteAgentSession(sessionId: string): Promise<void> {
    if (!this.connection || !this.history.delete) throw new Error(`${this.agent.label} cannot delete sessions.`);
    await this.connection.deleteSession(sessionId);
  }

  /** Ends the open session on the agent's side (where it can), then stops the process. */
  async close(): Promise<void> {
    if (this.connection && this.sessionId && this.history.close) {
      await this.connection.closeSession(this.sessionId).catch((error: unknown) => this.log.warn(`session/close failed: ${errorMessage(error)}`));
    }
    await this.stopAgent();
  }

  async restart(): Promise<boolean> {
    await this.stopAgent();
    if (this.activeTurn) this.finishTurn(this.activeTurn, 'cancelled', null);
    this.setConnection({ phase: 'idle', message: null, agentName: this.agent.label });
    return this.start();
  }

  dispose(): void {
    this.disposed = true;
    if (this.activeTurn?.cancelTimer) clearTimeout(this.activeTurn.cancelTimer);
    void this.stopAgent();
    this.connectionEmitter.dispose();
    this.turnEmitter.dispose();
    this.terminalDisplays.dispose();
    this.updateEmitter.dispose();
  }

  private async open(): Promise<boolean> {
    if (!this.environment.trusted) return false;
    const cwd = this.environment.workspaceRoot;
    if (!cwd) {
      this.fail('Open a folder first: agents work inside a workspace folder.');
      return false;
    }
    const env = { ...this.agent.env, ...(await this.environment.apiKeys?.environmentFor(this.agent.id).catch(() => ({}))) };
    const executable = findExecutable(this.agent.command, env.PATH ?? process.env.PATH, cwd);
    if (!executable) {
      const hint = this.agent.installHint ? ` ${this.agent.installHint}` : ' Check the "command" of this agent in the tandem.agents setting.';
      this.fail(`${this.agent.label} is not installed: "${this.agent.command}" was not found.${hint}`);
      return false;
    }
    this.setConnection({ phase: 'starting', message: `Starting ${this.agent.label}…`, agentName: this.agent.label });
    const host = hostFor({ command: executable, args: this.agent.args, env, cwd }, {
      pool: this.agent.shareProcess === false ? undefined : this.environment.agentHosts,
      offers: { fs: Boolean(this.environment.services?.createFs), terminals: Boolean(this.environment.services?.createTerminals) },
      onFrame: (frame) => this.environment.frames.record(frame),
      log: this.log,
      label: this.agent.label,
      start: this.environment.startAgent,
    });
    const agentProcess = host.process;
    const connection = host.connection;
    this.host = host;
    this.process = agentProcess;
    this.connection = connection;
    void agentProcess.exited.then((exit) => this.onProcessExit(agentProcess, exit));
    const services = new DisposableStore();
    this.connectionServices = services;
    const context: SessionContext = { key: this.key, cwd, thread: this.thread, logger: this.log, onUpdate: this.updateEmitter.event, agentInfo: () => connection.initializeResponse?.agentInfo ?? null, terminalDisplays: this.terminalDisplays };
    const fs = this.environment.services?.createFs?.(context) ?? null;
    const terminals = this.environment.services?.createTerminals?.(context) ?? null;
    if (fs) services.add(fs);
    if (terminals) services.add(terminals);
    const hosted: HostedSession = {
      sessionId: () => this.sessionId,
      ports: {
        sessionUpdate: (notification) => this.onSessionUpdate(notification),
        requestPermission: (params, signal) => this.permissions.request(params, signal),
        fs,
        terminals,
        elicitation: { create: (params, signal) => this.elicitations.request(params, signal), complete: (params) => this.elicitations.complete(params.elicitationId) },
      },
    };
    this.hosted = hosted;
    host.attach(hosted);
    const chosen = this.chosenAgentAuth;
    try {
      const prepared = host.prepare(() => initializeAgent(connection, { agent: this.agent, env, signInOffered: this.environment.signIn !== undefined, skipKeyAuth: chosen !== null, log: this.log }));
      const init = await raceExit(prepared.response, agentProcess);
      if (chosen) await raceExit(connection.authenticate(chosen), agentProcess);
      this.chosenAgentAuth = null;
      const mcp = serversForAgent(this.environment.mcpServers?.() ?? [], init.agentCapabilities?.mcpCapabilities);
      for (const skipped of mcp.skipped) this.thread.addNotice('warning', `MCP server not passed to the agent: ${skipped}`);
      const requested = this.openTarget;
      const target = resolveContinue(requested, historyCapabilities(init));
      const kept = requested.kind === 'continue' ? this.thread.snapshot() : null;
      if (requested.kind === 'continue') noteContinuation(this.thread, this.agent.label, target);
      // Updates of a loaded session's replay must land in the thread, so the id is known first.
      if (target.kind === 'load' || target.kind === 'resume') this.sessionId = target.sessionId;
      const session = await raceExit(openSession(connection, target.kind === 'continue' ? { kind: 'new' } : target, cwd, mcp.servers), agentProcess)
        .catch(async (error: unknown) => {
          // An earlier session the agent cannot bring back must not cost the user the transcript.
          if (!kept || target.kind === 'new' || error instanceof AgentExitedError || isAuthRequired(error)) throw error;
          this.thread.restore(kept);
          this.thread.addNotice('warning', `${this.agent.label} could not continue the earlier session (${errorMessage(error)}${errorDetails(error)}), so this is a new session: the agent has not seen the messages above.`);
          this.sessionId = null;
          return raceExit(openSession(connection, { kind: 'new' }, cwd, mcp.servers), agentProcess);
        });
      this.openTarget = { kind: 'new' };
      this.sessionId = session.sessionId;
      this.newSessionResponse = session.response;
      if (session.configOptions) this.thread.setFact('configOptions', session.configOptions);
      if (session.modes) this.thread.setFact('currentModeId', session.modes.currentModeId);
      if (target.kind === 'new') await applyAgentDefaults(connection, session, this.agent, this.thread);
      this.setConnection({ phase: 'ready', message: null, agentName: init.agentInfo?.title ?? this.agent.label });
      return true;
    } catch (error) {
      if (this.process !== agentProcess) return false;
      if (isAuthRequired(error)) {
        await this.requireSignIn(null);
        return false;
      }
      const exit = error instanceof AgentExitedError ? error.exit : await exitedSoon(agentProcess);
      const message = exit ? describeExit(this.agent.label, exit) : `${this.agent.label} could not open a session: ${errorMessage(error)}`;
      this.log.error(message);
      await this.stopAgent();
      this.fail(message);
      return false;
    }
  }

  private onSessionUpdate(notification: acp.SessionNotification): void {
    // A shared process's updates reach every session on it; each keeps its own.
    if (notification.sessionId !== this.sessionId) return;
    this.thread.applyUpdate(notification.update);
    this.terminalDisplays.observe(notification.update);
    this.updateEmitter.fire(notification.update);
  }

  private onProcessExit(agentProcess: AgentChannel, exit: AgentExit): void {
    if (this.disposed || this.process !== agentProcess || exit.requested) return;
    const message = describeExit(this.agent.label, exit);
    this.log.error(message);
    this.process = null;
    if (this.host && this.hosted) this.host.detach(this.hosted);
    this.host = null;
    this.hosted = null;
    this.connectionServices.dispose();
    this.connection?.close();
    this.connection = null;
    this.sessionId = null;
    this.permissions.cancelAll();
    if (this.activeTurn) this.finishTurn(this.activeTurn, 'error', message);
    this.thread.addNotice('error', message, ['showLog', 'restartAgent']);
    this.setConnection({ phase: 'exited', message, agentName: this.agent.label });
  }

  private finishTurn(turn: { cancelTimer: NodeJS.Timeout | null; ended: boolean }, stopReason: StopReasonView, detail: string | null): void {
    if (turn.ended) return;
    turn.ended = true;
    if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
    this.permissions.cancelAll();
    if (stopReason === 'cancelled' || stopReason === 'error') this.terminalDisplays.endAgentTerminals();
    this.thread.endTurn(stopReason, detail);
    if (this.activeTurn === turn) this.activeTurn = null;
    this.turnEmitter.fire(this.turnView);
  }

  /** The agent answered "authentication required": stop it and offer its ways to sign in. */
  private async requireSignIn(retryPrompt: { text: string; notes: readonly string[] } | null): Promise<void> {
    const methods = this.connection?.initializeResponse?.authMethods ?? [];
    const views = signInMethods(methods, this.environment.signIn !== undefined);
    await this.stopAgent();
    if (views.length === 0) {
      this.fail(`${this.agent.label} needs you to sign in and offers no way to do it from Tandem: sign in outside the editor, then try again.`);
      return;
    }
    this.signInState = { methods: [...methods], retryPrompt };
    this.setConnection({ phase: 'signInRequired', message: `${this.agent.label} needs you to sign in.`, agentName: this.agent.label, signIn: views });
  }

  /** The user chose a way to sign in: run its login (or let the agent do it), reconnect, retry. */
  async signIn(methodId: string): Promise<boolean> {
    const state = this.signInState;
    const method = state?.methods.find((candidate) => candidate.id === methodId);
    if (!state || !method || this.connectionState.phase !== 'signInRequired') return false;
    const cwd = this.environment.workspaceRoot ?? process.cwd();
    const command = findExecutable(this.agent.command, this.agent.env.PATH ?? process.env.PATH, cwd) ?? this.agent.command;
    const login = loginCommand(method, { command, args: this.agent.args, env: this.agent.env, cwd });
    const variable = apiKeyVariable(method);
    if (variable && this.environment.apiKeys) {
      const key = await this.environment.apiKeys.ask(this.agent.id, this.agent.label, method.name, variable);
      if (!key) return false;
      this.chosenAgentAuth = methodId;
    } else if (login && this.environment.signIn) {
      this.setConnection({ phase: 'starting', message: `Finish signing in in the terminal "${login.label}": Tandem reconnects when it ends.`, agentName: this.agent.label });
      const result = await this.environment.signIn.runLogin(login).catch((error: unknown) => {
        this.log.error(`sign-in with ${login.command} failed: ${errorMessage(error)}`);
        return { exitCode: null };
      });
      if (result.exitCode !== 0) {
        const why = result.exitCode === null ? 'the terminal closed first' : `exit code ${result.exitCode}`;
        this.setConnection({ phase: 'signInRequired', message: `Sign-in did not finish (${why}). Try again.`, agentName: this.agent.label, signIn: signInMethods(state.methods, true) });
        return false;
      }
    } else {
      this.chosenAgentAuth = methodId;
    }
    this.signInState = null;
    const ready = await this.start();
    if (ready && state.retryPrompt && !this.activeTurn) {
      this.retryingPrompt = true;
      await this.prompt(state.retryPrompt.text, state.retryPrompt.notes);
    }
    return ready;
  }

  private fail(message: string): void {
    this.setConnection({ phase: 'failed', message, agentName: this.agent.label });
  }

  private setConnection(state: ConnectionView): void {
    if (this.disposed) return;
    this.connectionState = state;
    this.connectionEmitter.fire(state);
  }
}
