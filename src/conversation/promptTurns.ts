import type * as acp from '@agentclientprotocol/sdk';
import { exitedSoon } from '../acp/agentExit';
import type { SessionCost } from '../usage/turnCost';
import { errorMessage } from '../redaction/redactedLog';
import type { AgentAttachment, ConversationBasics } from './sessionOpener';
import { isAuthRequired } from './signIn';
import type { PromptText } from './signInFlow';
import type { Turn, TurnState } from './turnState';

/** What sending a prompt needs of its conversation. */
export interface PromptingConversation extends ConversationBasics {
  readonly turns: TurnState;
  start(): Promise<boolean>;
  /** Why the agent is not running, as the banner says it. */
  /** Why a turn could not run, or null when the panel already says it. */
  notRunning(): string | null;
  /** The handling of a connection an agent's frame broke, else null (see AgentWatch). */
  failedByAgent(attachment: AgentAttachment): Promise<void> | null;
  /** The agent refused `refused` until the user signs in. */
  requireSignIn(refused: PromptText): Promise<void>;
  /** The user's budgets: a turn begins, and a message is refused while a limit is reached. */
  readonly budget?: { turnBegan(): void; refusal(): Promise<string | null> };
}

/**
 * Sending prompts: each runs one turn (starting the agent if need be) that ends with the agent's
 * stop reason, or with why it could not run: a sign-in first (the prompt goes again after it),
 * an agent that went away (its exit says why), or the error.
 */
export class PromptTurns {
  /** The last `session/prompt` answer (its usage, for agents that send no `usage_update`). */
  lastResponse: acp.PromptResponse | null = null;
  /** The running (or last) turn's account: the session's cost when it began, and its answer once there is one. */
  turnAccount: { costBefore: SessionCost | null; response: acp.PromptResponse | null } | null = null;
  /** Prompts sent and not answered yet: the agent may still be working on one after Stop ended its turn here. */
  private unanswered = 0;

  constructor(private readonly conversation: PromptingConversation) {}

  /**
   * `notes` (e.g. what the user undid) go to the agent after the user's text and attachments, each
   * in its own block, not into the thread: agents read a slash command from the first text block.
   */
  async send(text: string, notes: readonly string[], attachments: readonly acp.ContentBlock[]): Promise<void> {
    if (this.conversation.turns.current) throw new Error('A turn is already running.');
    this.conversation.thread.addUserMessage(text);
    await this.run({ text, notes }, attachments);
  }

  /** After sign-in: the refused prompt once more, unless the user started another turn meanwhile. */
  async retry(prompt: PromptText): Promise<void> {
    if (!this.conversation.turns.current) await this.run(prompt, []);
  }

  /** Runs one turn of a prompt that is already in the thread. */
  private async run(prompt: PromptText, attachments: readonly acp.ContentBlock[]): Promise<void> {
    const { turns } = this.conversation;
    const turn = turns.begin();
    const account = { costBefore: this.conversation.thread.facts.usage?.cost ?? null, response: null as acp.PromptResponse | null };
    this.turnAccount = account;
    this.conversation.budget?.turnBegan();
    const refused = await this.conversation.budget?.refusal();
    if (refused) {
      turns.finish(turn, 'error', refused);
      return;
    }
    const ready = await this.conversation.start();
    const attachment = this.conversation.attached();
    const sessionId = attachment?.sessionId;
    if (!ready || !attachment || !sessionId) {
      turns.finish(turn, 'error', this.conversation.notRunning());
      return;
    }
    try {
      const blocks: acp.ContentBlock[] = [{ type: 'text', text: prompt.text }, ...attachments, ...prompt.notes.map((note): acp.ContentBlock => ({ type: 'text', text: note }))];
      const response = await this.answerTo(attachment, sessionId, blocks);
      this.lastResponse = response;
      account.response = response;
      turns.finish(turn, response.stopReason, null);
    } catch (error) {
      await this.failed(turn, attachment, error, prompt);
    }
  }

  /** The running turn's cost when it began; undefined while no turn runs. */
  turnCostBefore(): SessionCost | null | undefined {
    return this.conversation.turns.current ? this.turnAccount?.costBefore ?? null : undefined;
  }

  /** Whether a prompt sent to the agent is still unanswered. */
  get awaitingAnswer(): boolean {
    return this.unanswered > 0;
  }

  private async answerTo(attachment: AgentAttachment, sessionId: string, blocks: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    this.unanswered++;
    try {
      return await attachment.connection.prompt(sessionId, blocks);
    } finally {
      this.unanswered--;
    }
  }

  private async failed(turn: Turn, attachment: AgentAttachment, error: unknown, prompt: PromptText): Promise<void> {
    const { turns, agentLabel, log } = this.conversation;
    if (isAuthRequired(error) && !turn.ended) {
      turns.finish(turn, 'error', `${agentLabel} needs you to sign in first.`);
      return this.conversation.requireSignIn(prompt);
    }
    const failedByAgent = this.conversation.failedByAgent(attachment);
    if (failedByAgent) return failedByAgent;
    // A dead agent closes the connection a moment before its exit is seen: report the exit.
    if (await exitedSoon(attachment.process)) return;
    if (turn.ended) return;
    const message = errorMessage(error);
    log.error(`session/prompt failed: ${message}`);
    turns.finish(turn, 'error', message);
  }
}
