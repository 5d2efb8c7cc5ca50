/**
 * The `frames` and `kills` rows, on the fault runners: adversarial frames written into a live
 * session's agent output (0 crashes, 0 hangs, the next prompt still answered), and agents killed
 * at random points with Tandem's real session fs and change ledger serving them (0 lost thread
 * entries, 0 processes left, 0 changes missing from review).
 */
import { FAULT_CASES, runFrameFaults, runKillFaults, type AgentChange, type FaultResult, type FaultRun, type KillReview } from '../../support/faultCases';
import type { FolderScopeParts } from '../../../src/workspace/workspaceScope';
import { reviewedFiles } from '../../support/reviewHarness';
import { CASES, type RowOptions, type StressRow, type Tally } from '../row';

const SEED = 1608;
/** A kill case mostly waits (for its trigger, SIGTERM's grace, the group to go): four at once keep 200 of them within the budget on 2 busy cores. */
const KILLS_AT_ONCE = 4;

function faultRun(options: RowOptions, tally: Tally, cases: { quick: number; full: number }): FaultRun {
  return {
    cases: options.quick ? cases.quick : cases.full,
    seed: SEED,
    shouldStop: () => options.signal.aborted,
    onCase: (failure) => tally.record(failure),
    progress: options.progress,
  };
}

function noteAll(tally: Tally, result: FaultResult): void {
  for (const note of result.notes) tally.note(note);
}

/** A change seen at the session's end is compared then, off the exit path: it may reach the ledger a moment later. */
const REVIEW_SETTLE_MS = 2_000;

/**
 * Every change a killed agent made must be in review with the bytes from before as its base (so
 * Undo restores them) and what the disk holds now as its current text.
 */
function killReview(workspace: string): KillReview {
  const { ledger, files } = reviewedFiles(workspace);
  // Which files the agent named to Tandem before it died: a change it never announced is one no client could know of.
  const announced = new Set<string>();
  const scope: FolderScopeParts = {
    files: (context) => {
      context.onUpdate((update) => {
        for (const location of 'locations' in update ? update.locations ?? [] : []) announced.add(location.path);
      });
      return files(context);
    },
  };
  const missing = (change: AgentChange): string | undefined => {
    if (!ledger.file(change.path)) return `${change.path} was changed by the agent but is not in review (${announced.has(change.path) ? 'its edit tool call reached Tandem' : 'its edit tool call never reached Tandem'})`;
    const base = ledger.baseText(change.path);
    if (base !== change.before) return `${change.path} is in review, but Undo would give ${JSON.stringify(base)} instead of what it held before, ${JSON.stringify(change.before)}`;
    const current = ledger.currentText(change.path);
    if (current !== change.after) return `${change.path} is in review as ${JSON.stringify(current)}, but the disk holds ${JSON.stringify(change.after)}`;
    return undefined;
  };
  const check = async (changes: readonly AgentChange[]) => {
    const deadline = Date.now() + REVIEW_SETTLE_MS;
    while (Date.now() < deadline && changes.some((change) => missing(change) !== undefined)) await new Promise((resolve) => setTimeout(resolve, 50));
    return changes.flatMap((change) => missing(change) ?? []);
  };
  return { scope, check };
}

export const framesRow: StressRow = {
  name: 'frames',
  budgetSeconds: { quick: 60, full: 420 },
  minimums: { quick: { [CASES]: FAULT_CASES.frames.quick }, full: { [CASES]: 100_000 } },
  async run(options, tally) {
    noteAll(tally, await runFrameFaults(faultRun(options, tally, FAULT_CASES.frames)));
  },
};

export const killsRow: StressRow = {
  name: 'kills',
  budgetSeconds: { quick: 60, full: 420 },
  minimums: { quick: { [CASES]: FAULT_CASES.kills.quick }, full: { [CASES]: 200 } },
  async run(options, tally) {
    noteAll(tally, await runKillFaults({ ...faultRun(options, tally, FAULT_CASES.kills), concurrency: KILLS_AT_ONCE, review: killReview }));
  },
};
