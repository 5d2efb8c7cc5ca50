/**
 * Undos whose disk write fails. The tests run as root, which ignores file permissions, so the
 * failures are ones root cannot write through either: the file's path became a folder (EISDIR),
 * or a folder on the way became a file (ENOTDIR).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { writeFailureMessage } from '../../src/review/reviewWriter';
import { sha256 } from '../support/hashes';
import { diskReview } from '../support/reviewHarness';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let workspace: string;
let review: ReturnType<typeof diskReview>;

beforeEachTest((t) => {
  workspace = tempWorkspace(t, 'tandem-undo-fail-');
  review = diskReview(workspace);
});
afterEach(() => review.fs.dispose());

/** The agent changes `path` on disk in an edit tool call (null deletes it). */
function agentWrites(path: string, after: string | Buffer | null, id: string): void {
  review.send({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit', kind: after === null ? 'delete' : 'edit', status: 'pending', locations: [{ path }] });
  if (after === null) rmSync(path);
  else writeFileSync(path, after);
  review.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' });
}

/** Makes a write of `path` fail even for root: the file is moved aside and a folder takes its place. */
function blockWrites(path: string): () => void {
  const aside = `${path}.aside`;
  writeFileSync(aside, readFileSync(path));
  rmSync(path);
  mkdirSync(path);
  return () => {
    rmSync(path, { recursive: true });
    writeFileSync(path, readFileSync(aside));
    rmSync(aside);
  };
}

describe('an undo whose disk write fails', () => {
  test('of one hunk: the change stays pending with the same hunks, and the failure names the file', async () => {
    const path = join(workspace, 'a.txt');
    writeFileSync(path, 'one\ntwo\nthree\n');
    agentWrites(path, 'ONE\ntwo\nTHREE\n', 't1');
    const pending = review.ledger.files();
    const unblock = blockWrites(path);
    const failures = await review.writer.undo([review.ledger.undoHunk(path, pending[0]?.hunks[0]?.id ?? '')]);
    assert.deepEqual(failures.map((failure) => failure.path), [path]);
    assert.match(failures[0]?.reason ?? '', /EISDIR|directory/);
    assert.deepEqual(review.ledger.files(), pending);
    assert.equal(review.ledger.canRedo(), false);
    assert.deepEqual(review.ledger.takeUndoSummary(), [], 'the agent is not told of an undo that did not happen');
    // Once the file can be written again, the same hunk undoes.
    unblock();
    assert.deepEqual(await review.writer.undo([review.ledger.undoHunk(path, pending[0]?.hunks[0]?.id ?? '')]), []);
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\nTHREE\n');
  });

  test('undo all: files that fail stay pending and are named; the others are undone byte for byte', async () => {
    const fine = join(workspace, 'fine.txt');
    const blocked = join(workspace, 'blocked.bin');
    const restored = join(workspace, 'sub', 'deleted.txt');
    const fineBytes = Buffer.from('\uFEFFkeep\r\nme\r\n');
    const blockedBytes = Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00]);
    mkdirSync(join(workspace, 'sub'));
    writeFileSync(fine, fineBytes);
    writeFileSync(blocked, blockedBytes);
    writeFileSync(restored, 'was here\n');
    agentWrites(fine, '\uFEFFkept\r\nme\r\n', 't1');
    agentWrites(blocked, Buffer.from([0xff, 0xfe, 0x62, 0x00, 0x0a, 0x00]), 't2');
    agentWrites(restored, null, 't3');
    blockWrites(blocked);
    // The deleted file's folder became a file: recreating it fails with ENOTDIR.
    rmSync(join(workspace, 'sub'), { recursive: true });
    writeFileSync(join(workspace, 'sub'), 'a file now');
    const pendingBefore = review.ledger.files();

    const writes = review.ledger.undoAll();
    const failures = await review.writer.undo(writes);

    assert.deepEqual(failures.map((failure) => failure.path), [blocked, restored]);
    assert.equal(sha256(readFileSync(fine)), sha256(fineBytes));
    assert.deepEqual(review.ledger.files(), pendingBefore.filter((file) => file.path !== fine));
    assert.deepEqual(review.ledger.takeUndoSummary(), ['fine.txt'].map((name) => `${join(workspace, name)}: undid 1 of 1 change`));
    const sentence = writeFailureMessage(failures, (path) => basename(path), 'undo', writes.length);
    assert.match(sentence, /^Tandem could not undo the agent's changes to blocked\.bin \(.+\) and deleted\.txt \(.+\): they are still on disk and still pending; the other files were undone\.$/);
    // The next Undo all tries them again; nothing was skipped.
    assert.deepEqual(review.ledger.undoAll().map((write) => write.path), [blocked, restored]);
  });

  test('content held as bytes is not overwritten when the file changed since the agent\'s change', async () => {
    const path = join(workspace, 'latin1.txt');
    writeFileSync(path, Buffer.from('caf\xe9\n', 'latin1'));
    agentWrites(path, Buffer.from('th\xe9\n', 'latin1'), 't1');
    const pending = review.ledger.files();
    const saved = Buffer.from('the user saved this\n', 'latin1');
    writeFileSync(path, saved);
    const failures = await review.writer.undo(review.ledger.undoAll());
    assert.match(failures[0]?.reason ?? '', /changed on disk since the agent's change/);
    assert.ok(readFileSync(path).equals(saved));
    assert.deepEqual(review.ledger.files(), pending);
  });

  test('the sentence for one file, and for a redo', () => {
    const one = [{ path: '/w/a.txt', reason: 'EISDIR: illegal operation on a directory' }];
    assert.equal(writeFailureMessage(one, basename, 'undo', 1), 'Tandem could not undo the agent\'s change to a.txt (EISDIR: illegal operation on a directory): it is still on disk and still pending.');
    assert.equal(writeFailureMessage(one, basename, 'redo', 2), 'Tandem could not bring back the agent\'s change to a.txt (EISDIR: illegal operation on a directory): the file keeps the undone text.');
  });
});
