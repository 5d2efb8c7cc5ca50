import type { ThreadModel } from '../thread/threadModel';
import { budgetSentence, budgetState, budgetWarning, type BudgetLimits, type BudgetState, type BudgetWarning } from '../usage/budget';
import { Emitter } from '../util/emitter';
import { costOfTurn, type SessionCost } from '../usage/turnCost';
import { localDay } from '../usage/usageEntry';
import { DisposableStore, type Disposable } from '../util/disposable';
import type { Logger } from '../util/logger';

/** The user's limits and what was spent before: the settings, and the usage ledger of every window. */
export interface BudgetSource {
  limits(): BudgetLimits;
  spentSince(fromDay: string, currency: string): Promise<number>;
}

/** What the guard needs of its conversation. */
export interface GuardedConversation {
  readonly thread: ThreadModel;
  readonly log: Logger;
  /** The running turn's cost when it began; undefined while no turn runs. */
  turnCostBefore(): SessionCost | null | undefined;
  /** Stops the running turn, as Stop does. */
  cancel(): Promise<void>;
}

const noLimits = (limits: BudgetLimits) => limits.conversation === null && limits.day === null && limits.month === null;

/**
 * Budgets kept during a turn: each cost the agent reports is added to what this conversation,
 * today and this month had spent, and a reached limit stops the turn at a safe point (once no
 * tool call is running, so a command or an edit is not cut in half), with one sentence in the
 * thread that names the limit and the setting to raise. A message sent while a limit is reached
 * does not go to the agent.
 */
export class BudgetGuard implements Disposable {
  private readonly disposables = new DisposableStore();
  /** The turn being stopped: one sentence and one stop per turn. */
  private stopping = false;
  private shown: BudgetWarning | null = null;
  private readonly changed = new Emitter<void>();
  /** The meter's warning changed (read `warning`). */
  readonly onChanged = this.changed.event;

  constructor(private readonly source: BudgetSource, private readonly conversation: GuardedConversation) {
    this.disposables.add(this.changed);
    this.disposables.add(conversation.thread.onFactChanged((fact) => {
      if (fact === 'usage') void this.check().catch((error: unknown) => conversation.log.warn(`Budget check failed: ${String(error)}`));
    }));
  }

  /** What the meter shows: a budget near or at its limit, else null. */
  get warning(): BudgetWarning | null {
    return this.shown;
  }

  /** Works out the warning again (a cost came in, a turn ended, the settings changed). */
  async refresh(): Promise<BudgetState> {
    const state = await this.state();
    const warning = budgetWarning(state);
    if (JSON.stringify(warning) !== JSON.stringify(this.shown)) {
      this.shown = warning;
      this.changed.fire();
    }
    return state;
  }

  /** Where the budget stands now, counting the running turn's cost so far. */
  async state(): Promise<BudgetState> {
    const limits = this.source.limits();
    if (noLimits(limits)) return { kind: 'within' };
    const cost = this.conversation.thread.facts.usage?.cost ?? null;
    const inCurrency = (value: SessionCost | null) => (value && value.currency === limits.currency ? value.amount : 0);
    const before = this.conversation.turnCostBefore();
    const turnSoFar = before === undefined ? 0 : inCurrency(costOfTurn(before, cost));
    const today = localDay(new Date());
    const [day, month] = await Promise.all([
      limits.day === null ? 0 : this.source.spentSince(today, limits.currency),
      limits.month === null ? 0 : this.source.spentSince(`${today.slice(0, 8)}01`, limits.currency),
    ]);
    return budgetState(limits, { conversation: inCurrency(cost), day: day + turnSoFar, month: month + turnSoFar });
  }

  /** Before a message goes out: the sentence to end its turn with when a limit is reached, else null. */
  async refusal(): Promise<string | null> {
    const state = await this.refresh();
    return state.kind === 'reached' ? budgetSentence(state) : null;
  }

  /** A turn began: it may be stopped once. */
  turnBegan(): void {
    this.stopping = false;
  }

  private async check(): Promise<void> {
    const state = await this.refresh();
    if (state.kind !== 'reached' || this.stopping || this.conversation.turnCostBefore() === undefined) return;
    this.stopping = true;
    await this.safePoint();
    if (this.conversation.turnCostBefore() === undefined) return;
    this.conversation.thread.addNotice('warning', budgetSentence(state), ['budgetSettings']);
    this.conversation.log.info(`[budget] ${budgetSentence(state)}`);
    await this.conversation.cancel();
  }

  /** Resolves once no tool call of the thread is running (or the turn ended). */
  private safePoint(): Promise<void> {
    if (!this.toolRunning()) return Promise.resolve();
    return new Promise((resolve) => {
      const watch = this.conversation.thread.onDelta(() => {
        if (this.toolRunning() && this.conversation.turnCostBefore() !== undefined) return;
        watch.dispose();
        resolve();
      });
      this.disposables.add(watch);
    });
  }

  private toolRunning(): boolean {
    const { thread } = this.conversation;
    for (let index = thread.length - 1; index >= 0; index--) {
      const entry = thread.entryAt(index);
      if (!entry || entry.kind === 'user') return false;
      if (entry.kind === 'toolCall' && entry.tool.status === 'in_progress') return true;
    }
    return false;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
