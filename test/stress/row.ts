/**
 * What one row of the stress suite is, and the tally it fills in as it goes. A row counts every
 * case it tried and describes each failure in one line; the runner prints the first few. The
 * tally is live, so a row stopped by its time budget still reports what it got through.
 */

export interface RowOptions {
  /** Small counts, for the run inside `npm test`. */
  quick: boolean;
  /** Aborted when the row's time budget runs out: stop starting cases, clean up, return. */
  signal: AbortSignal;
  /** Progress for the person watching (stderr), never part of the figures. */
  progress(line: string): void;
}

/** How many cases of each part a row must at least have tried, by part (see `Tally.record`). */
export type Minimums = Readonly<Record<string, number>>;

export interface StressRow {
  name: string;
  /** Wall-clock bounds, in seconds; a row that runs past its budget is a failure. */
  budgetSeconds: { quick: number; full: number };
  /**
   * The least each part must have tried: the full run's are what the suite promises (100,000
   * frames, 200 kills...), the quick run's what its small counts give. Fewer is a failure, so a
   * corpus that shrank or a row that quietly skipped cases cannot pass as held.
   */
  minimums: { quick: Minimums; full: Minimums };
  run(options: RowOptions, tally: Tally): Promise<void>;
}

/** The part a case counts under when its row has only one. */
export const CASES = 'cases';

/** How many different failures are described; the rest, and repeats, are only counted. */
const DESCRIBED_FAILURES = 8;

export class Tally {
  tried = 0;
  /** `tried`, by part of the row (a row with one part counts all under CASES). */
  readonly triedByPart = new Map<string, number>();
  failures = 0;
  /** The first failures, one line each. */
  readonly failureLines: string[] = [];
  /** Figures and facts worth printing whatever the outcome (counts per kind, times). */
  readonly notes: string[] = [];

  /** One case of `part` tried; `failure` describes what went wrong, undefined when it held. */
  record(failure?: string, part = CASES): void {
    this.tried++;
    this.triedByPart.set(part, (this.triedByPart.get(part) ?? 0) + 1);
    if (failure !== undefined) this.fail(failure);
  }

  /** A failure that is not one tried case (the row itself broke, or ran out of time). */
  fail(description: string): void {
    this.failures++;
    if (this.failureLines.length < DESCRIBED_FAILURES && !this.failureLines.includes(description)) this.failureLines.push(description);
  }

  note(line: string): void {
    this.notes.push(line);
  }
}

/** Stops a loop of cases when the budget ran out; the runner has counted that already. */
export function stopped(options: RowOptions): boolean {
  return options.signal.aborted;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}

/** Whole-text preview of a case for a detail line: one line, bounded. */
export function preview(text: string, max = 100): string {
  const flat = JSON.stringify(text);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
