/**
 * The `frames` and `kills` rows, on the fault runners: adversarial frames written into a live
 * session's agent output (0 crashes, 0 hangs, the next prompt still answered), and agents killed
 * at random points with Tandem's real session fs and change ledger serving them (0 lost thread
 * entries, 0 processes left, 0 changes missing from review).
 */
import { FAULT_CASES, runFrameFaults, runKillFaults, type FaultResult, type FaultRun } from '../../support/faultCases';
import { killReview } from '../../support/killReview';
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
