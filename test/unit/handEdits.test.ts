import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeFeed } from '../../src/review/changeFeed';
import { ChangeLedger } from '../../src/review/changeLedger';
import { handEditNote } from '../../src/review/handEdits';

const PATH = '/w/notes.md';
const label = (path: string) => path.replace('/w/', '');

/** A ledger and its feed with one pending agent change of PATH by session `agent-1`. */
function pending(before: string, after: string) {
  const ledger = new ChangeLedger();
  const feed = new ChangeFeed(ledger);
  feed.record(PATH, { before, after, origin: 'editor' }, 'agent-1');
  return { ledger, feed };
}

/** The note agent-1 would get now ('' when none). */
function note(feed: ChangeFeed, owner = 'agent-1'): string {
  const files = feed.takeHandEdits(owner);
  return files.length === 0 ? '' : handEditNote(files, label);
}

/** Types `text` at the end of line `line` (0-based) one character at a time, as the editor reports it. */
function type(feed: ChangeFeed, ledger: ChangeLedger, line: number, text: string): void {
  for (const char of text) {
    const lines = (ledger.currentText(PATH) ?? '').split('\n');
    lines[line] += char;
    feed.documentChanged(PATH, lines.join('\n'));
  }
}

const BASE = 'one\ntwo\nthree\nfour\nfive\n';
const AGENT = 'one\nTWO\nthree\nfour\nFIVE\n';

describe('hand edits of the agent\'s lines are told to the agent', () => {
  test('typing on a line the agent wrote is one note: where, what the agent wrote, what the user made of it; told once', () => {
    const { ledger, feed } = pending(BASE, AGENT);
    type(feed, ledger, 1, ' (checked)');
    assert.equal(note(feed), [
      '[Note from the editor: the user edited by hand some of the lines you changed. Line numbers are those of the files as they are now; read the files again before editing them.]',
      'notes.md, line 2:\nYou wrote:\n- TWO\nThe user made it:\n+ TWO (checked)',
    ].join('\n\n'));
    assert.equal(note(feed), '', 'told once');
    type(feed, ledger, 1, '!');
    assert.match(note(feed), /You wrote:\n- TWO \(checked\)\nThe user made it:\n\+ TWO \(checked\)!/, 'a later edit is told against what the agent was told last');
  });

  test('edits that do not touch the agent\'s lines are no news: lines of the base, lines added beside the agent\'s, an edit taken back, a reload from disk', () => {
    const { ledger, feed } = pending(BASE, AGENT);
    type(feed, ledger, 2, ' base line edited');
    feed.documentChanged(PATH, (ledger.currentText(PATH) ?? '').replace('TWO\n', 'TWO\nadded by the user\n'));
    assert.equal(note(feed), '');
    type(feed, ledger, 5, 'X');
    feed.documentChanged(PATH, (ledger.currentText(PATH) ?? '').replace('FIVEX', 'FIVE'));
    assert.equal(note(feed), '', 'the user typed and took it back');
    type(feed, ledger, 1, '?');
    feed.documentChanged(PATH, (ledger.currentText(PATH) ?? '').replace('TWO?', 'TWO'), false);
    assert.equal(note(feed), '', 'Ctrl+Z back to the saved file, the agent\'s text: nothing is left to tell');
    feed.documentChanged(PATH, (ledger.currentText(PATH) ?? '').replace('FIVE', 'five from disk'), false);
    assert.equal(note(feed), '', 'the editor reloaded the file: not the user\'s typing');
    assert.equal(ledger.currentText(PATH), 'one\nTWO\nadded by the user\nthree base line edited\nfour\nfive from disk\n', 'the ledger still follows every change');
  });

  test('the agent that made the change is told, no other', () => {
    const { ledger, feed } = pending(BASE, AGENT);
    type(feed, ledger, 4, '?');
    assert.equal(note(feed, 'agent-2'), '');
    assert.match(note(feed, 'agent-1'), /notes\.md, line 5:\nYou wrote:\n- FIVE\nThe user made it:\n\+ FIVE\?/);
  });

  test('undoing the hunk the user edited is the undo\'s news only; undoing another keeps the edit told, at its line now', () => {
    const edited = pending('a\nb\nc\nd\ne\n', 'a\nB\nB2\nc\nd\nE\n');
    type(edited.feed, edited.ledger, 5, '!');
    const [, last] = edited.ledger.file(PATH)?.hunks ?? [];
    edited.ledger.undoHunk(PATH, last?.id ?? '');
    assert.equal(note(edited.feed), '');
    assert.deepEqual(edited.feed.takeUndoSummary('agent-1'), [`${PATH}: undid 1 of 2 changes`]);

    const other = pending('a\nb\nc\nd\ne\n', 'a\nB\nB2\nc\nd\nE\n');
    type(other.feed, other.ledger, 5, '!');
    const [first] = other.ledger.file(PATH)?.hunks ?? [];
    other.ledger.undoHunk(PATH, first?.id ?? '');
    assert.equal(other.ledger.currentText(PATH), 'a\nb\nc\nd\nE!\n');
    assert.match(note(other.feed), /notes\.md, line 5:\nYou wrote:\n- E\nThe user made it:\n\+ E!$/, 'line 6 before the undo took two lines back to one');
  });

  test('kept after the edit, the user\'s lines stand and are told; undone whole, nothing of them is left to tell', () => {
    const kept = pending(BASE, AGENT);
    type(kept.feed, kept.ledger, 1, ' kept');
    kept.ledger.keepAll();
    assert.match(note(kept.feed), /- TWO\nThe user made it:\n\+ TWO kept/);

    const undone = pending(BASE, AGENT);
    type(undone.feed, undone.ledger, 1, ' undone');
    undone.ledger.undoAll();
    assert.equal(note(undone.feed), '');
  });

  test('an edit that puts the base back by hand, and one that deletes the agent\'s lines, say so', () => {
    const { ledger, feed } = pending('a\nb\nc\n', 'a\nNEW 1\nNEW 2\nb\nC\n');
    feed.documentChanged(PATH, 'a\nb\nC, the user\'s\n');
    assert.equal(ledger.file(PATH)?.hunks.length, 1);
    assert.equal(note(feed).split('\n\n').slice(1).join('\n\n'), [
      'notes.md, lines removed before line 2:\nYou wrote:\n- NEW 1\n- NEW 2\nThe user made it:\n(nothing)',
      'notes.md, line 3:\nYou wrote:\n- C\nThe user made it:\n+ C, the user\'s',
    ].join('\n\n'));
  });

  test('the agent writing the file again keeps what the user had done so far; the notes survive a reload of the ledger', () => {
    const { ledger, feed } = pending(BASE, AGENT);
    type(feed, ledger, 1, ' by hand');
    feed.record(PATH, { before: null, after: 'one\nTWO by hand\nthree\nFOUR\nFIVE\n', origin: 'editor' }, 'agent-1');
    const reloaded = new ChangeFeed(ChangeLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON()))));
    assert.match(note(reloaded), /notes\.md, line 2:\nYou wrote:\n- TWO\nThe user made it:\n\+ TWO by hand$/);
  });

  test('a damaged stored note is dropped, the pending change is not', () => {
    const { ledger, feed } = pending(BASE, AGENT);
    type(feed, ledger, 1, '!');
    const snapshot = JSON.parse(JSON.stringify(ledger.toJSON())) as ReturnType<ChangeLedger['toJSON']>;
    const [entry] = snapshot.notes;
    assert.ok(entry?.[1].edited);
    (entry[1].edited as unknown as Record<string, unknown>).agentLines = 'not lines';
    const restored = ChangeLedger.fromJSON(snapshot);
    assert.equal(restored.currentText(PATH), 'one\nTWO!\nthree\nfour\nFIVE\n');
    assert.deepEqual(restored.takeHandEdits(), []);
  });

  test('the note is bounded: long hunks and lines are cut and say how much more there is; a huge file is named without its text', () => {
    const agentLines = Array.from({ length: 40 }, (_, i) => `agent ${i} ${'x'.repeat(i === 0 ? 400 : 0)}`);
    const { feed } = pending('start\nend\n', `start\n${agentLines.join('\n')}\nend\n`);
    feed.documentChanged(PATH, `start\n${agentLines.map((line) => `${line}!`).join('\n')}\nend\n`);
    const text = note(feed);
    assert.match(text, /You wrote:\n- agent 0 x{292}…\n/);
    assert.match(text, /- agent 11 \n… \(28 more lines\)\nThe user made it:/);
    assert.ok(text.length < 2 * 12 * 320 + 600, `bounded (${text.length} characters)`);

    const huge = 'line\n'.repeat(250_000);
    const big = pending(huge, `${huge}agent\n`);
    big.feed.documentChanged(PATH, `${huge}agent, edited\n`);
    assert.match(note(big.feed), /notes\.md: edited by hand \(the file is too large to show the lines here\)\.$/);
  });
});
