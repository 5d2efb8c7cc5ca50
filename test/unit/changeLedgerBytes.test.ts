/**
 * The ledger's whole-file review of content held as bytes (binary, UTF-16, Latin-1, over the text
 * limit), and undos the adapter could not write, which must stay pending exactly as they were.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeLedger, type LedgerSnapshot } from '../../src/review/changeLedger';
import { bytesToLatin1, textToLatin1 } from '../../src/review/contentBytes';

const latin1 = (bytes: readonly number[]) => bytesToLatin1(Uint8Array.from(bytes));
const roundTrip = (ledger: ChangeLedger) => ChangeLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON())) as LedgerSnapshot);

/** UTF-16LE with BOM whose bytes hold 0x0A and 0x0D in places that are not line ends. */
const UTF16_BEFORE = latin1([0xff, 0xfe, 0x0a, 0x01, 0x68, 0x00, 0x0d, 0x00, 0x0a, 0x00]);
const UTF16_AFTER = latin1([0xff, 0xfe, 0x0a, 0x01, 0x69, 0x00, 0x0d, 0x00, 0x0a, 0x00, 0x6a, 0x00]);

describe('content held as bytes', () => {
  test('is one whole-file hunk that describes the content, and undo gives back every byte', () => {
    const ledger = new ChangeLedger();
    ledger.record('u16.txt', { before: UTF16_BEFORE, after: UTF16_AFTER, origin: 'disk', toolCallId: 't1', encoding: 'bytes' });
    const file = ledger.file('u16.txt');
    assert.equal(file?.status, 'modified');
    assert.equal(file?.encoding, 'bytes');
    assert.equal(file?.hunks.length, 1);
    assert.deepEqual([file?.added, file?.removed], [1, 1]);
    assert.match(file?.hunks[0]?.added[0] ?? '', /^12 bytes, not shown as text/);
    const write = ledger.undoHunk('u16.txt', file?.hunks[0]?.id ?? '');
    assert.deepEqual(write, { path: 'u16.txt', text: UTF16_BEFORE, encoding: 'bytes', replaces: UTF16_AFTER });
    assert.deepEqual(ledger.files(), []);
    assert.deepEqual(ledger.redoLastUndo(), [{ path: 'u16.txt', text: UTF16_AFTER, encoding: 'bytes', replaces: UTF16_BEFORE }]);
    ledger.keepAll();
    assert.deepEqual(ledger.files(), []);
  });

  test('a created or deleted bytes file is created or deleted; keeping takes the whole file', () => {
    const binary = latin1([0, 1, 2, 0x0a, 0xff, 0x80]);
    const ledger = new ChangeLedger();
    ledger.record('new.bin', { before: null, after: binary, origin: 'disk', encoding: 'bytes' });
    ledger.record('gone.bin', { before: binary, after: null, origin: 'disk', encoding: 'bytes' });
    ledger.record('kept.bin', { before: binary, after: `${binary}x`, origin: 'disk', encoding: 'bytes' });
    assert.deepEqual(ledger.files().map((file) => [file.path, file.status, file.hunks.length]), [['new.bin', 'created', 1], ['gone.bin', 'deleted', 1], ['kept.bin', 'modified', 1]]);
    assert.deepEqual(ledger.file('new.bin')?.hunks[0]?.removed, []);
    ledger.keepHunk('kept.bin', ledger.file('kept.bin')?.hunks[0]?.id ?? '');
    assert.deepEqual(ledger.undoAll().map((write) => [write.path, write.text]), [['new.bin', null], ['gone.bin', binary]]);
  });

  test('a text file the agent turns into bytes is held as bytes from then on, its base as its UTF-8 bytes', () => {
    const ledger = new ChangeLedger();
    ledger.record('mixed.txt', { before: 'café\n', after: 'thé\n', origin: 'editor' });
    ledger.record('mixed.txt', { before: 'thé\n', after: latin1([0x74, 0x68, 0xe9, 0x0a]), origin: 'disk', encoding: 'bytes' });
    assert.equal(ledger.encodingOf('mixed.txt'), 'bytes');
    assert.equal(ledger.file('mixed.txt')?.hunks.length, 1);
    // A later text record of the same file is its UTF-8 bytes too.
    ledger.record('mixed.txt', { before: null, after: 'tea\n', origin: 'disk' });
    assert.equal(ledger.currentText('mixed.txt'), 'tea\n');
    assert.deepEqual(ledger.undoFile('mixed.txt'), { path: 'mixed.txt', text: textToLatin1('café\n'), encoding: 'bytes', replaces: 'tea\n' });
  });

  test('survives a JSON round trip as bytes, with its redo stack', () => {
    const ledger = new ChangeLedger();
    ledger.record('a.bin', { before: UTF16_BEFORE, after: UTF16_AFTER, origin: 'disk', encoding: 'bytes' });
    ledger.record('b.bin', { before: UTF16_AFTER, after: UTF16_BEFORE, origin: 'disk', encoding: 'bytes' });
    ledger.undoFile('b.bin');
    const restored = roundTrip(ledger);
    assert.deepEqual(restored.files(), ledger.files());
    assert.deepEqual(restored.toJSON(), ledger.toJSON());
    assert.deepEqual(restored.redoLastUndo(), [{ path: 'b.bin', text: UTF16_BEFORE, encoding: 'bytes', replaces: UTF16_AFTER }]);
    assert.throws(() => ChangeLedger.fromJSON({ ...ledger.toJSON(), files: [{ ...ledger.toJSON().files[0], encoding: 'utf16' }] } as unknown as LedgerSnapshot), /bad files/);
  });
});

describe('an undo the adapter could not write', () => {
  const base = 'one\ntwo\nthree\nfour\nfive\n';
  const after = 'ONE\ntwo\nthree\nfour\nFIVE\n';

  test('is pending again with the same hunks and ids, neither redoable nor news for the agent', () => {
    const ledger = new ChangeLedger();
    ledger.record('a.txt', { before: base, after, origin: 'disk', toolCallId: 't1' });
    const pending = ledger.files();
    const [first] = pending[0]?.hunks ?? [];
    ledger.undoHunk('a.txt', first?.id ?? '');
    let changes = 0;
    ledger.onDidChange(() => changes++);
    ledger.cancelUndo(['a.txt']);
    assert.equal(changes, 1);
    assert.deepEqual(ledger.files(), pending);
    assert.equal(ledger.currentText('a.txt'), after);
    assert.equal(ledger.canRedo(), false);
    assert.deepEqual(ledger.takeUndoSummary(), []);
  });

  test('in an undo of several files, only the files that failed come back; the rest stay undone and redoable', () => {
    const ledger = new ChangeLedger();
    ledger.record('a.txt', { before: base, after, origin: 'disk' });
    ledger.record('new.txt', { before: null, after: 'fresh\n', origin: 'disk' });
    ledger.record('c.txt', { before: 'c\n', after: 'C\n', origin: 'editor' });
    const pending = ledger.files();
    ledger.undoAll();
    ledger.cancelUndo(['a.txt', 'new.txt']);
    assert.deepEqual(ledger.files(), pending.slice(0, 2));
    assert.deepEqual(ledger.takeUndoSummary(), ['c.txt: undid 1 of 1 change']);
    assert.deepEqual(ledger.redoLastUndo(), [{ path: 'c.txt', text: 'C\n' }]);
    assert.equal(ledger.canRedo(), false);
    // Undo all tries them again.
    assert.deepEqual(ledger.undoAll().map((write) => [write.path, write.text]), [['a.txt', base], ['new.txt', null], ['c.txt', 'c\n']]);
  });

  test('a path with no undo to cancel changes nothing', () => {
    const ledger = new ChangeLedger();
    ledger.record('a.txt', { before: base, after, origin: 'disk' });
    const pending = ledger.files();
    ledger.cancelUndo(['other.txt']);
    assert.deepEqual(ledger.files(), pending);
  });
});
