/**
 * The `undo` row: random undo/keep mixes byte-checked on the change ledger, then the same
 * decisions through a real VS Code's buffers (code-server), where line endings and BOMs meet
 * the editor's own text model.
 */
import { LEDGER_UNDO_CASES, runLedgerUndoCases } from '../../support/reviewStressCases';
import { stopped, type RowOptions, type StressRow, type Tally } from '../row';
import { BUFFER_FILES, BUFFER_PART, bufferRoundTrips } from './bufferRoundTrips';

const LEDGER_PART = 'ledger mixes';

/** Cases per slice: the ledger runner is synchronous, so the time budget is looked at between slices. */
const SLICE = 250;

async function ledgerMixes(options: RowOptions, tally: Tally): Promise<void> {
  const total = options.quick ? LEDGER_UNDO_CASES.quick : LEDGER_UNDO_CASES.full;
  const started = performance.now();
  const before = tally.tried;
  for (let done = 0; done < total && !stopped(options); done += SLICE) {
    runLedgerUndoCases({ cases: Math.min(SLICE, total - done), seed: 1 + done, onCase: (difference) => tally.record(difference && `ledger: ${difference}`, LEDGER_PART) });
    await new Promise((resolve) => setImmediate(resolve));
  }
  tally.note(`on the ledger: ${tally.tried - before} random undo/keep mixes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export const undoRow: StressRow = {
  name: 'undo',
  budgetSeconds: { quick: 150, full: 600 },
  minimums: {
    quick: { [LEDGER_PART]: LEDGER_UNDO_CASES.quick, [BUFFER_PART]: BUFFER_FILES.quick },
    full: { [LEDGER_PART]: 10_000, [BUFFER_PART]: 300 },
  },
  async run(options, tally) {
    await ledgerMixes(options, tally);
    await bufferRoundTrips(options, tally);
  },
};
