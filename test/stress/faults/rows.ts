/**
 * The `frames` and `kills` rows, on the fault runners: adversarial frames written into a live
 * session's agent output (0 crashes, 0 hangs, the next prompt still answered), and agents killed
 * at random points with Tandem's real session fs and change ledger serving them (0 lost thread
 * entries, 0 processes left, 0 changes missing from review).
 */
import { FAULT_CASES, runFrameFaults, runKillFaults, type AgentChange, type FaultResult, type FaultRun, type KillReview } from '../../support/faultCases';
import { reviewedFiles } from '../../support/reviewHarness';
import type { RowOptions, StressRow, Tally } from '../row';

const SEED = 1608;

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

/**
 * Every change a killed agent made must be in review with the bytes from before as its base (so
 * Undo restores them) and what the disk holds now as its current text.
 */
function killReview(workspace: string): KillReview {
  const { ledger, createFs } = reviewedFiles(workspace);
  const missing = (change: AgentChange): string | undefined => {
    if (!ledger.file(change.path)) return `${change.path} was changed by the agent but is not in review`;
    if (ledger.baseText(change.path) !== change.before) return `${change.path} is in review, but Undo would not restore what it held before`;
    if (ledger.currentText(change.path) !== change.after) return `${change.path} is in review with other text than the disk holds`;
    return undefined;
  };
  return { services: { createFs }, check: (changes) => changes.flatMap((change) => missing(change) ?? []) };
}

export const framesRow: StressRow = {
  name: 'frames',
  budgetSeconds: { quick: 60, full: 420 },
  async run(options, tally) {
    noteAll(tally, await runFrameFaults(faultRun(options, tally, FAULT_CASES.frames)));
  },
};

export const killsRow: StressRow = {
  name: 'kills',
  budgetSeconds: { quick: 60, full: 420 },
  async run(options, tally) {
    noteAll(tally, await runKillFaults({ ...faultRun(options, tally, FAULT_CASES.kills), review: killReview }));
  },
};
