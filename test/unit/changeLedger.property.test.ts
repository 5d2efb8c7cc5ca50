/**
 * Property tests of the change ledger: seeded random texts (BOM, CRLF/LF/CR mixes, no final
 * newline, non-ASCII, repeated lines) and random agent edits, checked against expectations
 * computed independently of the ledger (own line splitter and hunk application, shared with
 * the stress suite in test/support/reviewStressCases.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeLedger, type FileChangeView, type HunkView, type LedgerSnapshot } from '../../src/review/changeLedger';
import { diffLineArrays } from '../../src/review/lineDiff';
import { applyKept, Random, randomChange, randomEdit, randomText, split } from '../support/reviewStressCases';

const stripEol = (line: string) => line.replace(/(\r\n|\r|\n)$/, '');

/** The hunks must turn base into current, line for line, and show the right display lines. */
function assertHunksDescribe(view: FileChangeView, before: string | null, after: string | null): void {
  const baseLines = split(before);
  const currentLines = split(after);
  const rebuilt: string[] = [];
  let at = 0;
  for (const [index, hunk] of view.hunks.entries()) {
    assert.ok(index === 0 ? hunk.baseStart >= 0 : hunk.baseStart > at, 'hunks are separated by at least one unchanged line');
    assert.ok(hunk.baseLineCount + hunk.currentLineCount > 0, 'a hunk changes something');
    assert.deepEqual(hunk.removed, baseLines.slice(hunk.baseStart, hunk.baseStart + hunk.baseLineCount).map(stripEol));
    assert.deepEqual(hunk.added, currentLines.slice(hunk.currentStart, hunk.currentStart + hunk.currentLineCount).map(stripEol));
    assert.equal(hunk.currentStart, rebuilt.length + hunk.baseStart - at, 'current start agrees with the unchanged lines before it');
    rebuilt.push(...baseLines.slice(at, hunk.baseStart), ...currentLines.slice(hunk.currentStart, hunk.currentStart + hunk.currentLineCount));
    at = hunk.baseStart + hunk.baseLineCount;
  }
  rebuilt.push(...baseLines.slice(at));
  assert.equal(rebuilt.join(''), currentLines.join(''));
}

const roundTrip = (ledger: ChangeLedger) => ChangeLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON())) as LedgerSnapshot);

/**
 * The user's edit: one line two or more lines away from every hunk, and with an EOL (so the final
 * line stays final), replaced; undefined when there are no hunks or no such line.
 */
function editAwayFromHunks(random: Random, text: string, hunks: readonly HunkView[], replacement: string): { line: number; eol: string; text: string } | undefined {
  const lines = split(text);
  const free = lines.map((_, i) => i).filter((i) => /(\r\n|\r|\n)$/.test(lines[i] ?? '')
    && hunks.every((hunk) => i < hunk.currentStart - 1 || i > hunk.currentStart + hunk.currentLineCount));
  if (hunks.length === 0 || free.length === 0) return undefined;
  const line = random.pick(free);
  const eol = lines[line]?.match(/(\r\n|\r|\n)$/)?.[0] ?? '';
  lines[line] = `${replacement}${eol}`;
  return { line, eol, text: lines.join('') };
}

type Disk = Map<string, string | null>;

/** What the editor/disk holds after the adapter writes every text the ledger returned. */
function writeAll(disk: Disk, writes: readonly { path: string; text: string | null }[] | null): void {
  for (const { path, text } of writes ?? []) disk.set(path, text);
}

/** An agent writes a file: an edit of what the disk holds (or of a new random text), sometimes a deletion. */
function recordAgentWrite(random: Random, ledger: ChangeLedger, disk: Disk, paths: readonly string[]): void {
  const path = random.pick(paths);
  const before = disk.has(path) ? (disk.get(path) ?? null) : randomText(random);
  const after = random.chance(0.05) ? null : randomEdit(random, before ?? '');
  ledger.record(path, { before, after, origin: random.chance(0.5) ? 'editor' : 'disk' });
  disk.set(path, after);
}

/** A user or review action on a pending file; false when `action` names none that applies (the caller undoes all). */
function reviewAction(random: Random, ledger: ChangeLedger, disk: Disk, action: number, file: FileChangeView, hunk: HunkView | undefined): boolean {
  if (action === 2 && ledger.currentText(file.path)) {
    const text = randomEdit(random, ledger.currentText(file.path) ?? '');
    ledger.updateCurrent(file.path, text);
    disk.set(file.path, text);
  } else if (action === 3 && hunk) {
    ledger.keepHunk(file.path, hunk.id);
  } else if (action === 4 && hunk) {
    writeAll(disk, [ledger.undoHunk(file.path, hunk.id)]);
  } else if (action === 5) {
    writeAll(disk, ledger.redoLastUndo());
  } else if (action === 6) {
    if (random.chance(0.5)) ledger.keepFile(file.path);
    else writeAll(disk, [ledger.undoFile(file.path)]);
  } else if (action === 8) {
    ledger.takeUndoSummary();
  } else {
    return false;
  }
  return true;
}

/** One random action of any kind; returns the ledger to go on with (a JSON round trip replaces it). */
function randomAction(random: Random, ledger: ChangeLedger, disk: Disk, paths: readonly string[]): ChangeLedger {
  const files = ledger.files();
  const file = files.length > 0 ? random.pick(files) : undefined;
  const hunk = file && file.hunks.length > 0 ? random.pick(file.hunks) : undefined;
  const action = random.int(10);
  if (action <= 1 || !file) recordAgentWrite(random, ledger, disk, paths);
  else if (action === 7) return roundTrip(ledger);
  else if (!reviewAction(random, ledger, disk, action, file, hunk)) writeAll(disk, ledger.undoAll());
  return ledger;
}

/** After every step: the ledger agrees with the disk, every file differs from its base, hunks describe it, ids are unique. */
function assertInvariants(ledger: ChangeLedger, disk: Disk, seed: number, step: number): void {
  const ids = new Set<string>();
  for (const view of ledger.files()) {
    assert.equal(ledger.currentText(view.path), disk.get(view.path), `seed ${seed} step ${step}: the ledger's current text is what the editor holds`);
    assert.notEqual(ledger.baseText(view.path), ledger.currentText(view.path));
    assertHunksDescribe(view, ledger.baseText(view.path) ?? null, ledger.currentText(view.path) ?? null);
    for (const { id } of view.hunks) {
      assert.ok(!ids.has(id), `seed ${seed}: hunk ids are unique`);
      ids.add(id);
    }
  }
}

/** One step of a replayable action sequence drawn from `actions`, logging what each action returned. */
function loggedAction(actions: Random, ledger: ChangeLedger, log: unknown[]): void {
  const files = ledger.files();
  const hunk = files.length > 0 ? actions.pick(files).hunks[0] : undefined;
  const path = files[0]?.path;
  const pathOf = (target: HunkView) => files.find((file) => file.hunks.includes(target))?.path ?? '';
  const choice = actions.int(6);
  if (choice === 0 || !path) {
    const change = randomChange(actions);
    ledger.record(`p${actions.int(3)}`, { ...change, origin: 'disk' });
  } else if (choice === 1 && hunk) {
    log.push(ledger.undoHunk(pathOf(hunk), hunk.id));
  } else if (choice === 2 && hunk) {
    ledger.keepHunk(pathOf(hunk), hunk.id);
  } else if (choice === 3) {
    log.push(ledger.redoLastUndo());
  } else if (choice === 4) {
    log.push(ledger.undoFile(path));
  } else {
    log.push(ledger.takeUndoSummary());
  }
  log.push(ledger.files());
}

const CASES = 400;
const PATH = 'dir/file.txt';

describe('ChangeLedger properties', () => {
  test(`${CASES} cases: random keep/undo mixes equal the base with exactly the kept hunks applied`, () => {
    let hunksSeen = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const random = new Random(seed);
      const { before, after } = randomChange(random);
      let ledger = new ChangeLedger();
      ledger.record(PATH, { before, after, origin: random.chance(0.5) ? 'editor' : 'disk', toolCallId: `t${seed}` });
      const view = ledger.file(PATH);
      if (before === after) {
        assert.equal(view, undefined);
        continue;
      }
      assert.ok(view, `seed ${seed}: a change is pending`);
      assertHunksDescribe(view, before, after);
      hunksSeen += view.hunks.length;
      const kept = new Set<string>();
      let disk: string | null = after;
      const remaining = new Map(view.hunks.map((hunk) => [hunk.id, hunk]));
      const order = random.shuffle(view.hunks);
      const finishAfter = random.chance(0.25) ? random.int(order.length + 1) : order.length;
      for (const [step, hunk] of order.entries()) {
        if (step === finishAfter) break;
        if (random.chance(0.1)) ledger = roundTrip(ledger);
        if (random.chance(0.5)) {
          ledger.keepHunk(PATH, hunk.id);
          kept.add(hunk.id);
        } else {
          disk = ledger.undoHunk(PATH, hunk.id).text;
        }
        remaining.delete(hunk.id);
        // The hunks not acted on keep their ids and their lines.
        const left = ledger.file(PATH)?.hunks ?? [];
        assert.deepEqual(left.map((other) => [other.id, other.removed, other.added]), [...remaining.values()].map((other) => [other.id, other.removed, other.added]), `seed ${seed}`);
      }
      if (ledger.file(PATH)) {
        if (random.chance(0.5)) {
          ledger.keepFile(PATH);
          for (const id of remaining.keys()) kept.add(id);
        } else {
          disk = ledger.undoFile(PATH).text;
        }
      }
      assert.equal(disk, applyKept(before, after, view.hunks, kept), `seed ${seed}`);
      assert.deepEqual(ledger.files(), [], `seed ${seed}: nothing left to review`);
    }
    assert.ok(hunksSeen > CASES, 'the generator produces hunks');
  });

  test(`${CASES} cases: several records keep the first base; undo-all gives it back byte for byte, keep-all takes the agent's result`, () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = new Random(seed * 7919);
      const files = Array.from({ length: 1 + random.int(3) }, (_, i) => ({ path: `f${i}`, ...randomChange(random) }));
      const ledger = new ChangeLedger();
      const latest = new Map<string, string | null>();
      for (const file of files) {
        let text = file.after;
        ledger.record(file.path, { before: file.before, after: text, origin: 'disk' });
        for (let again = random.int(3); again > 0 && text !== null; again--) {
          const next: string = randomEdit(random, text);
          ledger.record(file.path, { before: text, after: next, origin: 'editor' });
          text = next;
        }
        latest.set(file.path, text);
      }
      const pending = files.filter((file) => latest.get(file.path) !== file.before);
      assert.deepEqual(ledger.files().map((file) => file.path), pending.map((file) => file.path), `seed ${seed}`);
      for (const file of pending) assert.equal(ledger.baseText(file.path), file.before);
      const undone = ledger.undoAll();
      assert.deepEqual(undone, pending.map((file) => ({ path: file.path, text: file.before })), `seed ${seed}`);
      assert.deepEqual(ledger.redoLastUndo(), pending.length === 0 ? null : pending.map((file) => ({ path: file.path, text: latest.get(file.path) ?? null })));
      for (const file of pending) assert.equal(ledger.currentText(file.path), latest.get(file.path));
      ledger.keepAll();
      assert.deepEqual(ledger.files(), []);
    }
  });

  test(`${CASES} cases: redoLastUndo brings the undone hunks back with their ids, in stack order`, () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = new Random(seed * 104729);
      const { before, after } = randomChange(random);
      const ledger = new ChangeLedger();
      ledger.record(PATH, { before, after, origin: 'editor' });
      const states: { files: FileChangeView[]; text: string | null | undefined }[] = [];
      for (const hunk of random.shuffle(ledger.file(PATH)?.hunks ?? []).slice(0, 1 + random.int(4))) {
        states.push({ files: ledger.files(), text: ledger.currentText(PATH) });
        ledger.undoHunk(PATH, hunk.id);
      }
      while (states.length > 0) {
        const state = states.pop();
        const writes = ledger.redoLastUndo();
        assert.deepEqual(writes, [{ path: PATH, text: state?.text }], `seed ${seed}`);
        assert.deepEqual(ledger.files(), state?.files, `seed ${seed}`);
      }
      assert.equal(ledger.redoLastUndo(), null);
    }
  });

  test(`${CASES} cases: a user edit away from the hunks keeps them, their ids, and survives undoing them`, () => {
    let edited = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const random = new Random(seed * 15485863);
      const before = randomText(random);
      const after = randomEdit(random, before);
      const ledger = new ChangeLedger();
      ledger.record(PATH, { before, after, origin: 'editor' });
      const hunks = ledger.file(PATH)?.hunks ?? [];
      const userEdit = editAwayFromHunks(random, after, hunks, `USER EDIT ${seed}`);
      if (!userEdit) continue;
      edited++;
      const { line, eol } = userEdit;
      ledger.updateCurrent(PATH, userEdit.text);
      assert.equal(ledger.baseText(PATH), before);
      const now = ledger.file(PATH)?.hunks ?? [];
      assert.equal(now.length, hunks.length + 1, `seed ${seed}`);
      for (const hunk of hunks) {
        const same = now.find((candidate) => candidate.id === hunk.id);
        assert.deepEqual([same?.removed, same?.added], [hunk.removed, hunk.added], `seed ${seed}: hunk ${hunk.id} kept`);
      }
      let text: string | null = null;
      for (const hunk of hunks) text = ledger.undoHunk(PATH, hunk.id).text;
      const expected = split(before);
      const shift = hunks.filter((hunk) => hunk.currentStart + hunk.currentLineCount <= line)
        .reduce((sum, hunk) => sum + hunk.baseLineCount - hunk.currentLineCount, 0);
      expected[line + shift] = `USER EDIT ${seed}${eol}`;
      assert.equal(text, expected.join(''), `seed ${seed}`);
      assert.equal(ledger.file(PATH)?.hunks.length, 1, 'only the user edit is left');
    }
    assert.ok(edited > CASES / 2, `enough cases had room for a user edit (${edited})`);
  });

  test('300 random sequences of every action keep the invariants after each step', () => {
    const paths = ['a.txt', 'b.txt', 'c.txt'];
    for (let seed = 1; seed <= 300; seed++) {
      const random = new Random(seed * 48271);
      let ledger = new ChangeLedger();
      // What the editor/disk holds, as the adapter would after writing every returned text.
      const disk: Disk = new Map();
      for (let step = 0; step < 15; step++) {
        ledger = randomAction(random, ledger, disk, paths);
        assertInvariants(ledger, disk, seed, step);
      }
    }
  });

  test('toJSON/fromJSON at random points changes nothing that follows', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = new Random(seed * 31337);
      const run = (persist: boolean) => {
        const actions = new Random(seed);
        let ledger = new ChangeLedger();
        const log: unknown[] = [];
        for (let step = 0; step < 12; step++) {
          if (persist && random.chance(0.3)) ledger = roundTrip(ledger);
          loggedAction(actions, ledger, log);
        }
        return log;
      };
      assert.deepEqual(run(true), run(false), `seed ${seed}`);
    }
  });

  test('diffLineArrays: 300 random pairs, small and large, rebuild the new side with non-touching edits', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = new Random(seed * 2654435761);
      const vocabulary = 2 + random.int(seed % 3 === 0 ? 4 : 400);
      const size = seed % 10 === 0 ? 2000 + random.int(3000) : random.int(60);
      const a = Array.from({ length: size }, () => `${random.int(vocabulary)}\n`);
      const b = a.flatMap((line) => (random.chance(0.05) ? [] : random.chance(0.05) ? [line, `${random.int(vocabulary)}\n`] : [random.chance(0.05) ? `${random.int(vocabulary)}\n` : line]));
      const edits = diffLineArrays(a, b);
      const rebuilt: string[] = [];
      let at = 0;
      for (const [index, edit] of edits.entries()) {
        if (index > 0) assert.ok(edit.aStart > at, 'an unchanged line between two edits');
        assert.ok(edit.aCount + edit.bCount > 0);
        assert.equal(edit.bStart - rebuilt.length, edit.aStart - at);
        rebuilt.push(...a.slice(at, edit.aStart), ...b.slice(edit.bStart, edit.bStart + edit.bCount));
        at = edit.aStart + edit.aCount;
      }
      rebuilt.push(...a.slice(at));
      assert.deepEqual(rebuilt, b, `seed ${seed}`);
    }
  });
});
