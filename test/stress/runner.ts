import { performance } from 'node:perf_hooks';
import { errorText, Tally, type Minimums, type StressRow } from './row';

/** How long a row that ran out of time gets to close what it opened before the runner moves on. */
const CLEANUP_GRACE_MS = 20_000;

export interface RowReport {
  name: string;
  tried: number;
  failures: number;
  seconds: number;
  /** `STRESS <row>: tried N, failures M`, then the detail lines. */
  lines: string[];
}

export interface RunOptions {
  quick: boolean;
  progress(line: string): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one row within its time budget. A row that throws or runs out of time counts that as a
 * failure and reports the cases it got through; the runner never waits on it past the budget
 * plus a bounded cleanup grace.
 */
export async function runRow(row: StressRow, options: RunOptions): Promise<RowReport> {
  const tally = new Tally();
  const controller = new AbortController();
  const budgetSeconds = options.quick ? row.budgetSeconds.quick : row.budgetSeconds.full;
  const started = performance.now();
  const running = row.run({ quick: options.quick, signal: controller.signal, progress: options.progress }, tally)
    .then(() => true, (error: unknown) => {
      if (!controller.signal.aborted) tally.fail(`the row itself failed: ${errorText(error)}`);
      return true;
    });
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), budgetSeconds * 1000);
  });
  const finished = await Promise.race([running, outOfTime]);
  clearTimeout(timer);
  if (!finished) {
    controller.abort();
    tally.fail(`ran out of its ${budgetSeconds} s budget after ${tally.tried} cases`);
    const cleaned = await Promise.race([running, sleep(CLEANUP_GRACE_MS).then(() => false)]);
    if (!cleaned) tally.note(`it had not stopped ${CLEANUP_GRACE_MS / 1000} s after its budget ran out`);
  }
  checkMinimums(tally, options.quick ? row.minimums.quick : row.minimums.full);
  const seconds = (performance.now() - started) / 1000;
  return { name: row.name, tried: tally.tried, failures: tally.failures, seconds, lines: reportLines(row.name, tally, seconds, budgetSeconds) };
}

/** A part that tried fewer cases than it must fails the row, whatever became of the cases it tried. */
function checkMinimums(tally: Tally, minimums: Minimums): void {
  for (const [part, least] of Object.entries(minimums)) {
    const tried = tally.triedByPart.get(part) ?? 0;
    if (tried < least) tally.fail(`tried ${tried} ${part}, fewer than the ${least} it must`);
  }
}

function reportLines(name: string, tally: Tally, seconds: number, budgetSeconds: number): string[] {
  const lines = [`STRESS ${name}: tried ${tally.tried}, failures ${tally.failures}`];
  for (const failure of tally.failureLines) lines.push(`  failed: ${failure}`);
  const undescribed = tally.failures - tally.failureLines.length;
  if (undescribed > 0) lines.push(`  failed: … and ${undescribed} more`);
  for (const note of tally.notes) lines.push(`  ${note}`);
  lines.push(`  time: ${seconds.toFixed(1)} s (budget ${budgetSeconds} s)`);
  return lines;
}
