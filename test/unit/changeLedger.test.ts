import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeLedger, StaleHunkError, type LedgerSnapshot } from '../../src/review/changeLedger';
import { diffLineArrays } from '../../src/review/lineDiff';
import { lineStarts, splitLines } from '../../src/review/lineText';
import { diffWorstCases } from '../support/slowInputs';

const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, i) => `${prefix} ${i}\n`);
const only = <T>(items: readonly T[]): T => {
  assert.equal(items.length, 1);
  return items[0] as T;
};

function ledgerWith(path: string, before: string | null, after: string | null): ChangeLedger {
  const ledger = new ChangeLedger();
  ledger.record(path, { before, after, origin: 'editor', toolCallId: 'call-1' });
  return ledger;
}

describe('line splitting', () => {
  test('keeps every EOL kind and the missing final newline', () => {
    const text = '\uFEFFa\r\nb\nc\rd';
    assert.deepEqual(splitLines(text), ['\uFEFFa\r\n', 'b\n', 'c\r', 'd']);
    assert.deepEqual([...lineStarts(text)], [0, 4, 6, 8, 9]);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines(null), []);
    assert.deepEqual(splitLines('\r\n\n'), ['\r\n', '\n']);
  });
});

describe('ChangeLedger', () => {
  test('a hunk is a maximal run of changed lines: one unchanged line between changes makes two', () => {
    const base = lines(6).join('');
    const after = ['line 0\n', 'X\n', 'line 2\n', 'Y\n', 'Z\n', 'line 5\n'].join('');
    const file = ledgerWith('a.txt', base, after).file('a.txt');
    assert.deepEqual(file?.hunks.map(({ baseStart, baseLineCount, currentStart, currentLineCount, removed, added }) => ({ baseStart, baseLineCount, currentStart, currentLineCount, removed, added })), [
      { baseStart: 1, baseLineCount: 1, currentStart: 1, currentLineCount: 1, removed: ['line 1'], added: ['X'] },
      { baseStart: 3, baseLineCount: 2, currentStart: 3, currentLineCount: 2, removed: ['line 3', 'line 4'], added: ['Y', 'Z'] },
    ]);
    assert.equal(file?.status, 'modified');
    assert.equal(file?.added, 3);
    assert.equal(file?.removed, 3);
    assert.deepEqual(file?.toolCallIds, ['call-1']);
  });

  test('undo restores exact bytes: BOM, CRLF, mixed EOLs, no final newline, non-ASCII', () => {
    const base = '\uFEFFtitre: café\r\nligne 2\r\n日本語\nend';
    const after = '\uFEFFtitre: thé\r\nligne 2\r\n日本語\nend 🙂\n';
    const ledger = ledgerWith('b.md', base, after);
    const hunks = ledger.file('b.md')?.hunks ?? [];
    assert.equal(hunks.length, 2);
    assert.deepEqual(hunks[0]?.added, ['\uFEFFtitre: thé']);
    const first = ledger.undoHunk('b.md', hunks[0]?.id ?? '');
    assert.equal(first.text, '\uFEFFtitre: café\r\nligne 2\r\n日本語\nend 🙂\n');
    const second = ledger.undoHunk('b.md', hunks[1]?.id ?? '');
    assert.equal(second.text, base);
    assert.equal(ledger.file('b.md'), undefined);
    assert.deepEqual(ledger.files(), []);
  });

  test('an EOL-only change is a change; the display lines look alike, the bytes do not', () => {
    const ledger = ledgerWith('c.txt', 'a\nb\n', 'a\r\nb\n');
    const hunk = only(ledger.file('c.txt')?.hunks ?? []);
    assert.deepEqual([hunk.removed, hunk.added], [['a'], ['a']]);
    assert.equal(ledger.undoHunk('c.txt', hunk.id).text, 'a\nb\n');
  });

  test('created file: undo deletes it (null), keep accepts it', () => {
    const ledger = ledgerWith('new.ts', null, 'export {};\n');
    const file = ledger.file('new.ts');
    assert.equal(file?.status, 'created');
    assert.equal(ledger.baseText('new.ts'), null);
    const hunk = only(file?.hunks ?? []);
    assert.deepEqual(ledger.undoHunk('new.ts', hunk.id), { path: 'new.ts', text: null });
    assert.equal(ledger.file('new.ts'), undefined);

    const kept = ledgerWith('new.ts', null, 'x');
    kept.keepFile('new.ts');
    assert.deepEqual(kept.files(), []);
    assert.deepEqual(ledgerWith('new.ts', null, 'x').undoFile('new.ts'), { path: 'new.ts', text: null });
  });

  test('created empty file has no hunks but is still pending', () => {
    const ledger = ledgerWith('empty.txt', null, '');
    const file = ledger.file('empty.txt');
    assert.equal(file?.status, 'created');
    assert.deepEqual(file?.hunks, []);
    assert.deepEqual(ledger.undoFile('empty.txt'), { path: 'empty.txt', text: null });
  });

  test('deleted file: undo brings the base back, keep accepts the deletion', () => {
    const base = 'keep me\r\nplease';
    const ledger = ledgerWith('old.txt', base, null);
    const file = ledger.file('old.txt');
    assert.equal(file?.status, 'deleted');
    assert.equal(ledger.currentText('old.txt'), null);
    const hunk = only(file?.hunks ?? []);
    assert.deepEqual(hunk.removed, ['keep me', 'please']);
    assert.deepEqual(ledger.undoHunk('old.txt', hunk.id), { path: 'old.txt', text: base });

    const kept = ledgerWith('old.txt', base, null);
    kept.keepHunk('old.txt', only(kept.file('old.txt')?.hunks ?? []).id);
    assert.deepEqual(kept.files(), []);
  });

  test('emptying a file is a modification to "", not a deletion', () => {
    const ledger = ledgerWith('e.txt', 'a\nb', '');
    assert.equal(ledger.file('e.txt')?.status, 'modified');
    assert.deepEqual(ledger.undoAll(), [{ path: 'e.txt', text: 'a\nb' }]);
  });

  test('later records move current only; the first base stays; tool calls add up; origin is the latest', () => {
    const ledger = new ChangeLedger();
    ledger.record('f.txt', { before: 'one\ntwo\n', after: 'one\n2\n', origin: 'editor', toolCallId: 't1' });
    ledger.record('f.txt', { before: 'ignored', after: '1\n2\n', origin: 'disk', toolCallId: 't2' });
    ledger.record('f.txt', { before: '1\n2\n', after: '1\n2\n', origin: 'disk', toolCallId: 't2' });
    assert.equal(ledger.baseText('f.txt'), 'one\ntwo\n');
    const file = ledger.file('f.txt');
    assert.equal(file?.origin, 'disk');
    assert.deepEqual(file?.toolCallIds, ['t1', 't2']);
    assert.equal(only(file?.hunks ?? []).added.join('|'), '1|2');
    assert.deepEqual(ledger.undoAll(), [{ path: 'f.txt', text: 'one\ntwo\n' }]);
  });

  test('an agent that writes the base back drops the file; a no-op record is ignored', () => {
    const ledger = ledgerWith('g.txt', 'a\n', 'b\n');
    ledger.record('g.txt', { before: 'b\n', after: 'a\n', origin: 'editor' });
    assert.deepEqual(ledger.files(), []);
    ledger.record('h.txt', { before: 'same', after: 'same', origin: 'disk' });
    assert.deepEqual(ledger.files(), []);
  });

  test('hunk ids stay stable when other hunks are kept or undone; stale ids throw StaleHunkError', () => {
    const base = lines(10).join('');
    const after = base.replace('line 1\n', 'one\n').replace('line 5\n', 'five\n').replace('line 8\n', 'eight\n');
    const ledger = ledgerWith('i.txt', base, after);
    const [h1, h5, h8] = ledger.file('i.txt')?.hunks ?? [];
    assert.ok(h1 && h5 && h8);
    ledger.keepHunk('i.txt', h1.id);
    assert.deepEqual(ledger.file('i.txt')?.hunks, [h5, h8]);
    ledger.undoHunk('i.txt', h5.id);
    assert.deepEqual(ledger.file('i.txt')?.hunks, [h8]);
    assert.throws(() => ledger.keepHunk('i.txt', h1.id), StaleHunkError);
    assert.throws(() => ledger.undoHunk('nope.txt', h8.id), StaleHunkError);
    assert.throws(() => ledger.undoFile('nope.txt'), StaleHunkError);
    assert.equal(ledger.baseText('i.txt'), base.replace('line 1\n', 'one\n'));
    assert.equal(ledger.currentText('i.txt'), base.replace('line 1\n', 'one\n').replace('line 8\n', 'eight\n'));
  });

  test('a later agent write elsewhere keeps the ids of untouched hunks', () => {
    const base = lines(20).join('');
    const first = base.replace('line 3\n', 'three\n');
    const ledger = ledgerWith('j.txt', base, first);
    const hunk = only(ledger.file('j.txt')?.hunks ?? []);
    ledger.record('j.txt', { before: first, after: first.replace('line 15\n', 'fifteen\n'), origin: 'editor' });
    const hunks = ledger.file('j.txt')?.hunks ?? [];
    assert.equal(hunks.length, 2);
    assert.deepEqual(hunks[0], hunk);
    assert.notEqual(hunks[1]?.id, hunk.id);
  });

  test('updateCurrent: a user edit elsewhere keeps the pending hunk, and undoing it keeps the user edit', () => {
    const base = lines(12).join('');
    const agent = base.replace('line 2\n', 'agent\n');
    const ledger = ledgerWith('k.txt', base, agent);
    const hunk = only(ledger.file('k.txt')?.hunks ?? []);
    const user = agent.replace('line 9\n', 'user typed\n');
    ledger.updateCurrent('k.txt', user);
    const hunks = ledger.file('k.txt')?.hunks ?? [];
    assert.equal(hunks.length, 2, 'the user edit is a hunk of its own');
    assert.deepEqual(hunks[0], hunk);
    assert.equal(ledger.baseText('k.txt'), base);
    assert.equal(ledger.undoHunk('k.txt', hunk.id).text, base.replace('line 9\n', 'user typed\n'));
    ledger.updateCurrent('unknown.txt', 'ignored');
    assert.equal(ledger.file('unknown.txt'), undefined);
  });

  test('updateCurrent: a user edit that undoes the change by hand resolves the file', () => {
    const ledger = ledgerWith('l.txt', 'a\nb\n', 'a\nB\n');
    ledger.updateCurrent('l.txt', 'a\nb\n');
    assert.deepEqual(ledger.files(), []);
  });

  test('keepAll takes the agent result as base; undoAll returns every base', () => {
    const ledger = new ChangeLedger();
    ledger.record('m.txt', { before: 'm\n', after: 'M\n', origin: 'editor' });
    ledger.record('n.txt', { before: null, after: 'n', origin: 'disk' });
    ledger.record('o.txt', { before: 'o', after: null, origin: 'disk' });
    assert.deepEqual(ledger.undoAll(), [
      { path: 'm.txt', text: 'm\n' }, { path: 'n.txt', text: null }, { path: 'o.txt', text: 'o' },
    ]);
    assert.deepEqual(ledger.files(), []);
    assert.deepEqual(ledger.undoAll(), []);
    const redone = ledger.redoLastUndo();
    assert.deepEqual(redone, [{ path: 'm.txt', text: 'M\n' }, { path: 'n.txt', text: 'n' }, { path: 'o.txt', text: null }]);
    assert.deepEqual(ledger.files().map((file) => [file.path, file.status, file.origin]), [
      ['m.txt', 'modified', 'editor'], ['n.txt', 'created', 'disk'], ['o.txt', 'deleted', 'disk'],
    ]);
    ledger.keepAll();
    assert.deepEqual(ledger.files(), []);
  });

  test('redoLastUndo is a stack over hunk, file and all undos, and brings back the same hunk id', () => {
    const base = lines(10).join('');
    const after = base.replace('line 1\n', 'one\n').replace('line 6\n', 'six\n');
    const ledger = ledgerWith('p.txt', base, after);
    const [h1, h6] = ledger.file('p.txt')?.hunks ?? [];
    assert.ok(h1 && h6);
    assert.equal(ledger.canRedo(), false);
    assert.equal(ledger.redoLastUndo(), null);
    ledger.undoHunk('p.txt', h1.id);
    ledger.undoHunk('p.txt', h6.id);
    assert.equal(ledger.originOf('p.txt'), 'editor', 'known from the redo stack after the file resolved');
    assert.equal(ledger.canRedo(), true);
    assert.deepEqual(ledger.redoLastUndo(), [{ path: 'p.txt', text: base.replace('line 6\n', 'six\n') }]);
    assert.deepEqual(ledger.file('p.txt')?.hunks, [{ ...h6, currentStart: 6 }]);
    assert.deepEqual(ledger.redoLastUndo(), [{ path: 'p.txt', text: after }]);
    assert.deepEqual(ledger.file('p.txt')?.hunks, [h1, h6]);
    assert.equal(ledger.canRedo(), false);
  });

  test('redo after the user edited elsewhere puts the hunk back around the edit', () => {
    const base = lines(10).join('');
    const ledger = ledgerWith('q.txt', base, base.replace('line 2\n', 'two\n'));
    const hunk = only(ledger.file('q.txt')?.hunks ?? []);
    ledger.record('q.txt', { before: '', after: base.replace('line 2\n', 'two\n').replace('line 7\n', 'seven\n'), origin: 'editor' });
    ledger.undoHunk('q.txt', hunk.id);
    ledger.updateCurrent('q.txt', base.replace('line 7\n', 'seven\n').replace('line 0\n', 'user\n'));
    assert.deepEqual(ledger.redoLastUndo(), [{ path: 'q.txt', text: base.replace('line 0\n', 'user\n').replace('line 2\n', 'two\n').replace('line 7\n', 'seven\n') }]);
    assert.ok(ledger.file('q.txt')?.hunks.some((candidate) => candidate.id === hunk.id));
  });

  test('redo gives up on a file whose undone lines the user edited since', () => {
    const base = lines(5).join('');
    const ledger = ledgerWith('r.txt', base, base.replace('line 2\n', 'two\n').replace('line 4\n', 'four\n'));
    const [hunk] = ledger.file('r.txt')?.hunks ?? [];
    ledger.undoHunk('r.txt', hunk?.id ?? '');
    const edited = base.replace('line 2\n', 'user\n').replace('line 4\n', 'four\n');
    ledger.updateCurrent('r.txt', edited);
    assert.deepEqual(ledger.redoLastUndo(), []);
    assert.equal(ledger.currentText('r.txt'), edited);
  });

  test('the redo stack keeps the latest 50 undos', () => {
    const ledger = new ChangeLedger();
    for (let i = 0; i < 60; i++) {
      ledger.record(`f${i}.txt`, { before: `${i}\n`, after: `${i}!\n`, origin: 'editor' });
      ledger.undoFile(`f${i}.txt`);
    }
    let redone = 0;
    for (let writes = ledger.redoLastUndo(); writes; writes = ledger.redoLastUndo()) redone++;
    assert.equal(redone, 50);
    assert.deepEqual(ledger.files().map((file) => file.path).slice(0, 2), ['f59.txt', 'f58.txt']);
    assert.equal(ledger.files().length, 50);
  });

  test('takeUndoSummary reports undos per file and clears', () => {
    const base = lines(10).join('');
    const ledger = ledgerWith('notes.md', base, base.replace('line 1\n', 'a\n').replace('line 4\n', 'b\n').replace('line 7\n', 'c\n'));
    ledger.record('new.md', { before: null, after: 'hello\n', origin: 'disk' });
    ledger.record('gone.md', { before: 'bye\n', after: null, origin: 'disk' });
    ledger.record('kept.md', { before: 'k\n', after: 'K\n', origin: 'disk' });
    const [a, b] = ledger.file('notes.md')?.hunks ?? [];
    ledger.undoHunk('notes.md', a?.id ?? '');
    ledger.undoHunk('notes.md', b?.id ?? '');
    ledger.undoFile('new.md');
    ledger.undoFile('gone.md');
    ledger.keepFile('kept.md');
    assert.deepEqual(ledger.takeUndoSummary(), [
      'notes.md: undid 2 of 3 changes',
      'new.md: undid the new file (deleted it)',
      'gone.md: undid the deletion (restored the file)',
    ]);
    assert.deepEqual(ledger.takeUndoSummary(), []);
  });

  test('a redo before the summary cancels the undo; after it, the summary says it came back', () => {
    const base = lines(6).join('');
    const ledger = ledgerWith('s.md', base, base.replace('line 1\n', 'a\n').replace('line 4\n', 'b\n'));
    const [a, b] = ledger.file('s.md')?.hunks ?? [];
    ledger.undoHunk('s.md', a?.id ?? '');
    ledger.redoLastUndo();
    assert.deepEqual(ledger.takeUndoSummary(), []);
    ledger.undoHunk('s.md', b?.id ?? '');
    assert.deepEqual(ledger.takeUndoSummary(), ['s.md: undid 1 of 2 changes']);
    ledger.redoLastUndo();
    assert.deepEqual(ledger.takeUndoSummary(), ['s.md: brought back 1 change undone earlier']);
  });

  test('onDidChange fires once per action and stops after dispose', () => {
    const ledger = new ChangeLedger();
    let fired = 0;
    const subscription = ledger.onDidChange(() => fired++);
    ledger.record('t.txt', { before: 'a\nb\nc\n', after: 'A\nb\nC\n', origin: 'editor' });
    ledger.undoAll();
    ledger.redoLastUndo();
    ledger.keepAll();
    assert.equal(fired, 4);
    subscription.dispose();
    ledger.record('t.txt', { before: 'a', after: 'b', origin: 'editor' });
    assert.equal(fired, 4);
  });

  test('toJSON/fromJSON round trip keeps files, ids, redo stack and notes; new ids do not collide', () => {
    const base = '\uFEFFa\r\nb\r\nc\r\nd';
    const ledger = ledgerWith('u.txt', base, '\uFEFFA\r\nb\r\nc\r\nD\n');
    ledger.record('v.txt', { before: null, after: 'new', origin: 'disk', toolCallId: 'call-2' });
    const [first] = ledger.file('u.txt')?.hunks ?? [];
    ledger.undoHunk('u.txt', first?.id ?? '');
    const restored = ChangeLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON())) as LedgerSnapshot);
    assert.deepEqual(restored.files(), ledger.files());
    assert.deepEqual(restored.toJSON(), ledger.toJSON());
    restored.record('w.txt', { before: 'x', after: 'y', origin: 'editor' });
    const ids = restored.files().flatMap((file) => file.hunks.map((hunk) => hunk.id));
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(restored.redoLastUndo(), [{ path: 'u.txt', text: '\uFEFFA\r\nb\r\nc\r\nD\n' }]);
    assert.deepEqual(restored.undoAll().map((write) => write.text), [base, null, 'x']);
    assert.deepEqual(ledger.takeUndoSummary(), ['u.txt: undid 1 of 2 changes']);
  });

  test('fromJSON recomputes hunks that do not fit their texts and rejects foreign snapshots', () => {
    const ledger = ledgerWith('x.txt', 'a\nb\n', 'a\nB\n');
    const snapshot = ledger.toJSON();
    const broken: LedgerSnapshot = { ...snapshot, files: snapshot.files.map((file) => ({ ...file, hunks: [{ id: 'h1', baseStart: 0, baseCount: 1, currentStart: 0, currentCount: 1 }] })) };
    const restored = ChangeLedger.fromJSON(broken);
    assert.deepEqual(restored.file('x.txt')?.hunks.map((hunk) => [hunk.baseStart, hunk.added]), [[1, ['B']]]);
    assert.throws(() => ChangeLedger.fromJSON({ ...snapshot, version: 2 } as unknown as LedgerSnapshot), /version 1/);
    assert.throws(() => ChangeLedger.fromJSON({ ...snapshot, files: [{ path: 1 }] } as unknown as LedgerSnapshot), /bad files/);
  });

  test('lone CR counts as a line break, like in the editor', () => {
    const ledger = ledgerWith('cr.txt', 'a\rb\rc', 'a\rB\rc');
    const hunk = only(ledger.file('cr.txt')?.hunks ?? []);
    assert.deepEqual([hunk.baseStart, hunk.removed, hunk.added], [1, ['b'], ['B']]);
    assert.equal(ledger.undoHunk('cr.txt', hunk.id).text, 'a\rb\rc');
  });
});

describe('diffLineArrays', () => {
  // How long they take: bench/hostileInputs (diff.rewrite20kMs, diff.repetitive20kMs).
  test('large rewrites and repetitive files still give a valid diff', () => {
    for (const { from, to } of diffWorstCases()) {
      const edits = diffLineArrays(from, to);
      const rebuilt: string[] = [];
      let at = 0;
      for (const edit of edits) {
        rebuilt.push(...from.slice(at, edit.aStart), ...to.slice(edit.bStart, edit.bStart + edit.bCount));
        at = edit.aStart + edit.aCount;
      }
      rebuilt.push(...from.slice(at));
      assert.deepEqual(rebuilt, to);
    }
  });
});
