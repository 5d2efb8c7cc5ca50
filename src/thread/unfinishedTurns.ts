/**
 * Turns that did not finish: one the user stopped or that failed, and one a window reload cut
 * off (a user message with no turn end after it). Their plans keep no step "in progress", and the
 * cut-off message is marked interrupted so the panel can offer to send it again.
 */
import type { ThreadEntry } from './entries';

type PlanEntry = Extract<ThreadEntry, { kind: 'plan' }>;

/** A plan with steps left, marked stopped; null when there is nothing to mark. */
export function stoppedPlan(entry: ThreadEntry | undefined): PlanEntry | null {
  if (entry?.kind !== 'plan' || entry.stopped) return null;
  return entry.items.some((item) => item.status !== 'completed') ? { ...entry, stopped: true } : null;
}

/** The index of the plan of the turn that `end` (exclusive) closes, or -1. */
export function planOfTurn(entries: readonly ThreadEntry[], end: number): number {
  for (let i = end - 1; i >= 0; i--) {
    const entry = entries[i];
    if (!entry || entry.kind === 'user' || entry.kind === 'turnEnded') return -1;
    if (entry.kind === 'plan') return i;
  }
  return -1;
}

/** A restored transcript's entries, with its unfinished turns settled as described above (in place). */
export function settleRestored(entries: ThreadEntry[]): void {
  let lastUser = -1;
  let ended = true;
  const stopAt = (end: number) => {
    const index = planOfTurn(entries, end);
    const stopped = stoppedPlan(entries[index]);
    if (stopped) entries[index] = stopped;
  };
  entries.forEach((entry, index) => {
    if (entry.kind === 'user' && !entry.steered) {
      lastUser = index;
      ended = false;
    } else if (entry.kind === 'turnEnded') {
      ended = true;
      if (entry.stopReason === 'cancelled' || entry.stopReason === 'error') stopAt(index);
    }
  });
  if (ended || lastUser === -1) return;
  stopAt(entries.length);
  const user = entries[lastUser];
  if (user?.kind === 'user') entries[lastUser] = { ...user, interrupted: true };
}
