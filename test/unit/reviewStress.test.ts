import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LEDGER_UNDO_CASES, runLedgerUndoCases } from '../support/reviewStressCases';

describe('random undo/keep mixes on the ledger, byte-checked', () => {
  test(`${LEDGER_UNDO_CASES.quick} cases: the disk holds exactly the base with the kept hunks, in bytes`, () => {
    const seen: (string | undefined)[] = [];
    const result = runLedgerUndoCases({ cases: LEDGER_UNDO_CASES.quick, onCase: (difference) => seen.push(difference) });
    assert.deepEqual(result.details, []);
    assert.deepEqual([result.tried, result.differences, seen.length], [LEDGER_UNDO_CASES.quick, 0, LEDGER_UNDO_CASES.quick]);
  });

  test('a run stops when asked, and reports what it tried', () => {
    let asked = 0;
    const result = runLedgerUndoCases({ cases: 100, seed: 5000, shouldStop: () => ++asked > 3 });
    assert.equal(result.tried, 3);
  });
});
