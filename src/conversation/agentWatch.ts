import { describeConnectionFailure, sentByAgent, type ConnectionFailure } from '../acp/acpConnection';
import { AgentExitedError, describeExit, exitedSoon } from '../acp/agentExit';
import type { AgentExit } from '../acp/agentChannel';
import type { StartupStage } from './startup';
import type { Disposable } from '../util/disposable';
import { errorMessage } from '../redaction/redactedLog';
import type { ConnectionState } from './connectionState';
import type { AgentAttachment, ConversationBasics } from './sessionOpener';
import { isAuthRequired } from './signIn';
import { bannerSentence, StartupProgress, STARTUP_TIMEOUTS_MS, stallSentence } from './startupProgress';

/** What the watch acts on in its conversation. */
export interface WatchedConversation extends ConversationBasics {
  readonly connection: ConnectionState;
  /** The conversation's one way to let go of its agent. */
  detach(): Promise<void>;
  /** The agent answered "authentication required" while opening. */
  requireSignIn(): Promise<void>;
  /** The running turn, if any, ends with why the agent is gone. */
  endTurn(message: string): void;
}

/**
 * A conversation's watch over its agent: a start's stages, each with a deadline that stops the
 * agent with a sentence when it passes, and what ends the agent other than the user (a start
 * that fails, the process exiting, the connection failing). Each says why in the banner, with
 * the stages and the agent's last log lines.
 */
export class AgentWatch implements Disposable {
  /** The last start, stage by stage: its deadlines while it runs, and what the banner says after. */
  private startup: StartupProgress | null = null;
  private readonly timeouts: Readonly<Record<StartupStage, number>>;

  constructor(private readonly conversation: WatchedConversation, timeouts: Partial<Record<StartupStage, number>> = {}) {
    this.timeouts = { ...STARTUP_TIMEOUTS_MS, ...timeouts };
  }

  /** A new start on `attachment`: its stages are timed, and its exit or a broken connection noticed. */
  watch(attachment: AgentAttachment): StartupProgress {
    this.startup?.dispose();
    const { agentLabel: label, connection } = this.conversation;
    const { command, args } = attachment.launch;
    this.startup = new StartupProgress({ label, command, args }, {
      stalled: (stage) => this.stalled(attachment, stage),
      began: (view) => connection.set({ phase: 'starting', message: `Starting ${label}…`, agentName: label, startup: view }),
    }, this.timeouts);
    void attachment.process.exited.then((exit) => this.onProcessExit(attachment, exit));
    void attachment.connection.failed.then((failure) => this.onConnectionFailed(attachment, failure));
    return this.startup;
  }

  /** Opening a session on `attachment` threw `error`: sign-in, or the banner says why, and the agent stops. */
  async openFailed(attachment: AgentAttachment, error: unknown): Promise<void> {
    const { agentLabel: label, log, connection } = this.conversation;
    // Stopped (or replaced) while opening: whoever did that said what happened.
    if (this.conversation.attached() !== attachment) return;
    if (isAuthRequired(error)) {
      this.startup?.waitForUser();
      return this.conversation.requireSignIn();
    }
    this.startup?.fail();
    const failedByAgent = this.failedByAgent(attachment);
    if (failedByAgent) return failedByAgent;
    const exit = error instanceof AgentExitedError ? error.exit : await exitedSoon(attachment.process);
    const message = exit ? describeExit(label, exit) : `${label} could not open a session: ${errorMessage(error)}`;
    log.error(message);
    const tail = exit?.stderrTail ?? attachment.process.stderrTail();
    await this.conversation.detach();
    connection.set({ phase: 'failed', message, agentName: label, startup: this.startup?.view(bannerSentence(label, message, exit), tail) });
  }

  /** When a frame of the agent broke the connection, what waited on it ends with that: the handling, else null. */
  failedByAgent(attachment: AgentAttachment): Promise<void> | null {
    const failure = attachment.connection.failure;
    return failure && sentByAgent(failure) ? this.onConnectionFailed(attachment, failure) : null;
  }

  dispose(): void {
    this.startup?.dispose();
  }

  private stalled(attachment: AgentAttachment, stage: StartupStage): void {
    const { agentLabel: label, log, connection } = this.conversation;
    if (this.conversation.attached() !== attachment) return;
    const message = stallSentence(label, stage, this.timeouts);
    log.error(message);
    const tail = attachment.process.stderrTail();
    void this.conversation.detach();
    connection.set({ phase: 'failed', message, agentName: label, startup: this.startup?.view(message, tail) });
  }

  private onProcessExit(attachment: AgentAttachment, exit: AgentExit): void {
    if (!exit.requested) this.lose(attachment, describeExit(this.conversation.agentLabel, exit), exit);
  }

  private async onConnectionFailed(attachment: AgentAttachment, failure: ConnectionFailure): Promise<void> {
    // An agent that is going away ends its connection a moment before its exit, which says what happened.
    if (!sentByAgent(failure) && (await exitedSoon(attachment.process))) return;
    this.lose(attachment, describeConnectionFailure(this.conversation.agentLabel, failure));
  }

  /**
   * The agent can no longer be reached (it exited, or its connection failed while it runs on):
   * the turn ends with why, the agent is let go of (stopped with its last conversation), and
   * Restart is offered, as for a crash.
   */
  private lose(attachment: AgentAttachment, message: string, exit: AgentExit | null = null): void {
    const { agentLabel: label, log, connection, thread } = this.conversation;
    if (connection.isDisposed || this.conversation.attached() !== attachment) return;
    log.error(message);
    const tail = exit?.stderrTail ?? attachment.process.stderrTail();
    this.startup?.fail();
    void this.conversation.detach();
    this.conversation.endTurn(message);
    thread.addNotice('error', message, ['showLog', 'restartAgent']);
    connection.set({ phase: 'exited', message, agentName: label, startup: this.startup?.view(bannerSentence(label, message, exit), tail) });
  }
}
