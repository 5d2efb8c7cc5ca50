import type { UsageEntry } from './usageEntry';

/** What a set of turns added up to. Costs stay apart by currency; what went unreported is counted, not guessed. */
export interface UsageTotal {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Turns whose agent reported tokens, and turns whose agent reported a cost. */
  turnsWithTokens: number;
  turnsWithCost: number;
  /** By currency code, in the order first met. */
  costs: Map<string, number>;
}

export function emptyTotal(): UsageTotal {
  return { turns: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, turnsWithTokens: 0, turnsWithCost: 0, costs: new Map() };
}

function add(total: UsageTotal, entry: UsageEntry): void {
  total.turns++;
  if (entry.inputTokens !== null || entry.outputTokens !== null || entry.totalTokens !== null) {
    total.turnsWithTokens++;
    total.inputTokens += entry.inputTokens ?? 0;
    total.outputTokens += entry.outputTokens ?? 0;
    total.totalTokens += entry.totalTokens ?? (entry.inputTokens ?? 0) + (entry.outputTokens ?? 0);
  }
  if (entry.cost !== null && entry.currency !== null) {
    total.turnsWithCost++;
    total.costs.set(entry.currency, (total.costs.get(entry.currency) ?? 0) + entry.cost);
  }
}

export function addUp(entries: Iterable<UsageEntry>): UsageTotal {
  const total = emptyTotal();
  for (const entry of entries) add(total, entry);
  return total;
}

/** The cost that sorts a group: its largest single-currency amount. */
export function sortCost(total: UsageTotal): number {
  return Math.max(0, ...total.costs.values());
}

/** Totals by `keyOf`, costliest first, then most turns, then by name. */
export function totalsBy(entries: Iterable<UsageEntry>, keyOf: (entry: UsageEntry) => string): [string, UsageTotal][] {
  const groups = new Map<string, UsageTotal>();
  for (const entry of entries) {
    const key = keyOf(entry);
    let total = groups.get(key);
    if (!total) groups.set(key, (total = emptyTotal()));
    add(total, entry);
  }
  return [...groups].sort(([nameA, a], [nameB, b]) => sortCost(b) - sortCost(a) || b.turns - a.turns || nameA.localeCompare(nameB));
}

/** The first day (YYYY-MM-DD) of today, this week (from Monday) and this month, for the user's `today`. */
export function periodStarts(today: string): { today: string; week: string; month: string } {
  const [year = 1970, month = 1, day = 1] = today.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  const monday = new Date(date.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
  return { today, week: monday, month: `${today.slice(0, 8)}01` };
}

/** The `count` days up to `today` (YYYY-MM-DD), oldest first. */
export function lastDays(today: string, count: number): string[] {
  const [year = 1970, month = 1, day = 1] = today.split('-').map(Number);
  const end = Date.UTC(year, month - 1, day);
  return Array.from({ length: count }, (_, index) => new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}
