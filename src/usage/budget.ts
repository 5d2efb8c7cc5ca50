import { amountText } from './amountText';

/** The user's spending limits, in one currency (costs reported in another are not counted against them). */
export interface BudgetLimits {
  readonly conversation: number | null;
  readonly day: number | null;
  readonly month: number | null;
  readonly currency: string;
}

export type BudgetScope = 'conversation' | 'day' | 'month';

/** What has been spent in each scope, in the limits' currency, counting the turn under way. */
export type BudgetSpend = Readonly<Record<BudgetScope, number>>;

/** Share of a limit from which the meter warns. */
export const BUDGET_WARNING_SHARE = 0.8;

/** The most pressing limit: none near, one near (at 80 % or more), or one reached. */
export type BudgetState =
  | { readonly kind: 'within' }
  | { readonly kind: 'near' | 'reached'; readonly scope: BudgetScope; readonly spent: number; readonly limit: number; readonly currency: string };

const SCOPES: readonly BudgetScope[] = ['conversation', 'day', 'month'];

/** Where `spend` stands against `limits`: a reached limit before a near one, the fullest first. */
export function budgetState(limits: BudgetLimits, spend: BudgetSpend): BudgetState {
  let pressing: BudgetState = { kind: 'within' };
  let pressingShare = 0;
  for (const scope of SCOPES) {
    const limit = limits[scope];
    if (limit === null || !(limit >= 0)) continue;
    const share = limit === 0 ? Number.POSITIVE_INFINITY : spend[scope] / limit;
    const kind = spend[scope] >= limit ? 'reached' : share >= BUDGET_WARNING_SHARE ? 'near' : null;
    if (!kind || share <= pressingShare || (pressing.kind === 'reached' && kind === 'near')) continue;
    pressing = { kind, scope, spent: spend[scope], limit, currency: limits.currency };
    pressingShare = share;
  }
  return pressing;
}

const SCOPE_WORDS: Record<BudgetScope, { name: string; setting: string }> = {
  conversation: { name: "this conversation's budget", setting: 'tandem.budget.perConversation' },
  day: { name: "today's budget", setting: 'tandem.budget.perDay' },
  month: { name: "this month's budget", setting: 'tandem.budget.perMonth' },
};


/** The setting that holds a scope's limit. */
export function budgetSetting(scope: BudgetScope): string {
  return SCOPE_WORDS[scope].setting;
}

/** What the meter shows of a budget near or at its limit. */
export interface BudgetWarning {
  readonly level: 'near' | 'reached';
  /** A few words beside the meter: "$0.85 of $1.00 today". */
  readonly short: string;
  /** The whole sentence, for the tooltip and screen readers. */
  readonly text: string;
}

const SHORT_SCOPES: Record<BudgetScope, string> = { conversation: 'here', day: 'today', month: 'this month' };

/** The meter's warning for `state`, or null within every limit. */
export function budgetWarning(state: BudgetState): BudgetWarning | null {
  if (state.kind === 'within') return null;
  return { level: state.kind, short: `${amountText(state.spent, state.currency)} of ${amountText(state.limit, state.currency)} ${SHORT_SCOPES[state.scope]}`, text: budgetSentence(state) };
}

/** One sentence for the thread or the meter. */
export function budgetSentence(state: Exclude<BudgetState, { kind: 'within' }>): string {
  const words = SCOPE_WORDS[state.scope];
  const spent = `${amountText(state.spent, state.currency)} of ${amountText(state.limit, state.currency)}`;
  return state.kind === 'near'
    ? `Near ${words.name}: ${spent} spent.`
    : `Stopped: ${words.name} is reached (${spent} spent). Raise ${words.setting} to go on.`;
}
