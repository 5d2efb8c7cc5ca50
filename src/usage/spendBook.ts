import type { UsageEntry } from './usageEntry';

/** Cost by day and currency, for what budgets need: the spend of a run of days in one currency. */
export class SpendBook {
  private readonly byDay = new Map<string, Map<string, number>>();

  add(entry: UsageEntry): void {
    if (entry.cost === null || entry.currency === null) return;
    let day = this.byDay.get(entry.day);
    if (!day) this.byDay.set(entry.day, (day = new Map()));
    day.set(entry.currency, (day.get(entry.currency) ?? 0) + entry.cost);
  }

  /** What was spent from `fromDay` on (YYYY-MM-DD, inclusive), in `currency`. */
  spentSince(fromDay: string, currency: string): number {
    let total = 0;
    for (const [day, costs] of this.byDay) if (day >= fromDay) total += costs.get(currency) ?? 0;
    return total;
  }
}
