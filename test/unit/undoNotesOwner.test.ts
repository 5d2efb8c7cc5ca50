import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeFeed } from '../../src/review/changeFeed';
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

  test('after a reload (ledger and owners read back from storage), each agent is told only of its own undone changes', () => {
    const ledger = new ChangeLedger();
    const feed = new ChangeFeed(ledger);
    feed.record('/w/a.ts', { before: 'a\n', after: 'A\n', origin: 'editor' }, 'tab-claude');
    feed.record('/w/b.ts', { before: 'b\n', after: 'B\n', origin: 'disk' }, 'tab-gemini');
    const stored = JSON.parse(JSON.stringify({ ledger: ledger.toJSON(), owners: feed.ownersJSON() })) as { ledger: Parameters<typeof ChangeLedger.fromJSON>[0]; owners: unknown };

    const reloaded = ChangeLedger.fromJSON(stored.ledger);
    const reloadedFeed = new ChangeFeed(reloaded, stored.owners);
    reloaded.undoAll();
    assert.deepEqual(reloadedFeed.takeUndoSummary('tab-gemini'), ['/w/b.ts: undid 1 of 1 change'], 'the first to prompt is told only of its own file');
    assert.deepEqual(reloadedFeed.takeUndoSummary('tab-claude'), ['/w/a.ts: undid 1 of 1 change']);
  });

  test('owners read from storage that are not strings are ignored: those files go to whoever asks first, as before owners were kept', () => {
    for (const stored of [undefined, null, 'tab-x', 7, { '/w/a.ts': 5 }, ['tab-x']]) {
      const ledger = new ChangeLedger();
      ledger.record('/w/a.ts', { before: 'a\n', after: 'A\n', origin: 'editor' });
      const feed = new ChangeFeed(ledger, stored);
      ledger.undoAll();
      assert.deepEqual(feed.takeUndoSummary('tab-any'), ['/w/a.ts: undid 1 of 1 change'], JSON.stringify(stored));
    }
  });
});
