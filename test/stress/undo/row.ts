/**
 * The `undo` row: random undo/keep mixes byte-checked on the change ledger, then the same
 * decisions through a real VS Code's buffers (code-server), where line endings and BOMs meet
 * the editor's own text model.
 */
import type { StressRow } from '../row';
import { bufferRoundTrips } from './bufferRoundTrips';

export const undoRow: StressRow = {
  name: 'undo',
  budgetSeconds: { quick: 150, full: 600 },
  async run(options, tally) {
    tally.fail('corpus missing: test/support/reviewStressCases.ts (the ledger half)');
    await bufferRoundTrips(options, tally);
  },
};
