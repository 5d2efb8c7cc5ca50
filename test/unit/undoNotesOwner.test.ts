import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeLedger } from '../../src/review/changeLedger';

describe('undo notes go to the agent that made the change', () => {
  test('a filtered take returns and clears only the accepted files', () => {
    const ledger = new ChangeLedger();
    ledger.record('/w/a.ts', { before: 'a\n', after: 'A\n', origin: 'editor' });
    ledger.record('/w/b.ts', { before: 'b\n', after: 'B\n', origin: 'disk' });
    ledger.undoAll();
    assert.deepEqual(ledger.takeUndoSummary((path) => path === '/w/a.ts'), ['/w/a.ts: undid 1 of 1 change']);
    assert.deepEqual(ledger.takeUndoSummary((path) => path === '/w/a.ts'), [], 'told once');
    assert.deepEqual(ledger.takeUndoSummary(), ['/w/b.ts: undid 1 of 1 change'], 'the other agent still gets its note');
  });
});
