import type { StopReasonView } from '../thread/entries';
import type { ThreadModel } from '../thread/threadModel';
import type { BudgetWarning } from '../usage/budget';
import type { SessionCost } from '../usage/turnCost';
import type { Disposable } from '../util/disposable';
import type { Logger } from '../util/logger';
import { BudgetGuard } from './budgetGuard';
import type { PromptTurns } from './promptTurns';
import type { SessionEnvironment } from './sessionEnvironment';
import { turnUsageEntry, type EndedTurn } from './turnUsageEntry';

/** What the conversation tells its costs when a turn ends. */
export interface CostedConversation {
  readonly agent: { id: string; label: string };
  readonly key: string;
  readonly thread: ThreadModel;
  readonly log: Logger;
  sessionId(): string | null;
  project(): string | null;
  sessionResponse(): EndedTurn['sessionResponse'];
  /** The running turn's cost when it began; undefined while no turn runs. */
  turnCostBefore(): SessionCost | null | undefined;
  cancel(): Promise<void>;
}

/**
 * One conversation's costs: each ended turn into the usage ledger, and the user's budgets kept
 * while turns run (see BudgetGuard). Both are optional ports of the environment.
 */
export class TurnCosts implements Disposable {
  readonly budget: BudgetGuard | null;

  constructor(private readonly environment: Pick<SessionEnvironment, 'usageLedger' | 'budget'>, private readonly conversation: CostedConversation) {
    this.budget = environment.budget ? new BudgetGuard(environment.budget, {
      thread: conversation.thread, log: conversation.log, turnCostBefore: () => conversation.turnCostBefore(), cancel: () => conversation.cancel(),
    }) : null;
  }

  /** A budget near or at its limit, as the meter shows it; null within every limit or without budgets. */
  get warning(): BudgetWarning | null {
    return this.budget?.warning ?? null;
  }

  onChanged(listener: () => void): Disposable {
    return this.budget?.onChanged(listener) ?? { dispose: () => undefined };
  }

  /** A turn ended: into the ledger if it reached the agent, and the meter's warning counts it. */
  turnEnded(stopReason: StopReasonView, account: PromptTurns['turnAccount']): void {
    const ledger = this.environment.usageLedger;
    const { conversation } = this;
    if (ledger && account) {
      const entry = turnUsageEntry({
        agent: conversation.agent, conversation: conversation.key, sessionId: conversation.sessionId(), project: conversation.project(),
        facts: conversation.thread.facts, sessionResponse: conversation.sessionResponse(), stopReason,
        costBefore: account.costBefore, response: account.response, endedAt: new Date(),
      });
      if (entry) ledger.record(entry);
    }
    void this.budget?.refresh().catch((error: unknown) => conversation.log.warn(`Budget check failed: ${String(error)}`));
  }

  dispose(): void {
    this.budget?.dispose();
  }
}
