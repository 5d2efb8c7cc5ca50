/** A cumulative session cost as `usage_update` reports it. */
export interface SessionCost {
  readonly amount: number;
  readonly currency: string;
}

/**
 * What one turn cost, from the session's cumulative cost before and after it: the growth, or the
 * whole cost after it when nothing was reported before (a new session) or the currency changed.
 * null when the agent reported no cost by the turn's end. A cost that went down (an agent that
 * restarted its count) is counted from zero again rather than as a refund.
 */
export function costOfTurn(before: SessionCost | null, after: SessionCost | null): SessionCost | null {
  if (!after) return null;
  if (!before || before.currency !== after.currency || after.amount < before.amount) return after;
  return { amount: after.amount - before.amount, currency: after.currency };
}
