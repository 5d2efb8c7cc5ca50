/**
 * Files an agent changes on disk itself, through the real session fs (disk tracker), ledger and
 * review writer, checked as bytes on disk: whatever the file holds, it is reviewable, and undo
 * gives back exactly the bytes it had; a file that existed is never taken for a new one.
 */
import type * as acp from '@agentclientprotocol/sdk';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { MAX_KEPT_FILE_BYTES } from '../../src/review/diskChangeTracker';
import { sha256 } from '../support/hashes';
import { diskReview } from '../support/reviewHarness';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

const onDisk = (path: string) => sha256(readFileSync(path));

let workspace: string;
let review: ReturnType<typeof diskReview>;

beforeEachTest((t) => {
  workspace = tempWorkspace(t, 'tandem-disk-review-');
  review = diskReview(workspace);
});
afterEach(() => review.fs.dispose());

/** An edit tool call that names `path` before the agent writes `after` (null deletes), then completes. */
function agentEdits(path: string, after: Uint8Array | null, id = 't1', kind: acp.ToolKind = 'edit'): void {
  review.send({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit', kind, status: 'pending', locations: [{ path }] });
  if (after === null) rmSync(path);
  else writeFileSync(path, after);
  review.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' });
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const binary = (size: number, seed: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed * 7 + (i >> 3)) % 256));
const bigText = (megabytes: number) => Buffer.from('0123456789abcdef\n'.repeat(Math.ceil((megabytes * 1048576) / 17)));

/** Files that are not reviewable as UTF-8 text, with the agent's rewrite of each. */
const notUtf8Text: [string, Buffer, Buffer][] = [
  ['UTF-16LE with BOM', utf16le('héllo\r\nwörld\n'), utf16le('héllo\r\nWÖRLD 🙂\n')],
  ['UTF-16BE with BOM', utf16be('one\ntwo\n'), utf16be('one\n2\n')],
  ['Latin-1', Buffer.from('caf\xe9\r\nna\xefve\n', 'latin1'), Buffer.from('th\xe9\r\nna\xefve\n', 'latin1')],
  ['invalid UTF-8 after 8 KB', Buffer.concat([Buffer.alloc(9000, 'a'), Buffer.from([0x0a, 0xe9, 0xff, 0x0a])]), Buffer.concat([Buffer.alloc(9000, 'b'), Buffer.from([0x0a, 0xe9, 0xff, 0x0a])])],
  ['binary', binary(5000, 1), binary(5003, 2)],
  ['11 MB text', bigText(11), Buffer.concat([bigText(11), Buffer.from('one more line\n')])],
];

describe('a file that is not UTF-8 text, changed by the agent on disk', () => {
  for (const [name, original, rewritten] of notUtf8Text) {
    test(`${name}: reviewable as a modified file; undo gives back every byte, keep leaves the agent's`, async () => {
      const path = join(workspace, 'file.dat');
      writeFileSync(path, original);
      agentEdits(path, rewritten);
      const file = review.ledger.file(path);
      assert.equal(file?.status, 'modified', 'never "created": undo must not delete it');
      assert.equal(file?.encoding, 'bytes');
      assert.equal(file?.hunks.length, 1);
      assert.deepEqual(await review.writer.undo([review.ledger.undoFile(path)]), []);
      assert.equal(onDisk(path), sha256(original));
      assert.ok(readFileSync(path).equals(original));
      assert.deepEqual(await review.writer.redo(review.ledger.redoLastUndo() ?? []), []);
      assert.equal(onDisk(path), sha256(rewritten));
      review.ledger.keepAll();
      assert.equal(onDisk(path), sha256(rewritten));
    });
  }

  test('a deleted UTF-16 file comes back byte for byte; a new binary file undone is gone', async () => {
    const deleted = join(workspace, 'gone.txt');
    const created = join(workspace, 'new.bin');
    const original = utf16le('keep me\r\n');
    writeFileSync(deleted, original);
    agentEdits(deleted, null, 't1', 'delete');
    agentEdits(created, binary(100, 3), 't2');
    assert.deepEqual(review.ledger.files().map((file) => [file.path, file.status]), [[deleted, 'deleted'], [created, 'created']]);
    assert.deepEqual(await review.writer.undo(review.ledger.undoAll()), []);
    assert.ok(readFileSync(deleted).equals(original));
    assert.equal(existsSync(created), false);
  });

  test('a text file the agent made binary is undone to its exact text bytes', async () => {
    const path = join(workspace, 'was-text.txt');
    const original = Buffer.from('\uFEFFtitre\r\nligne\rfin');
    writeFileSync(path, original);
    agentEdits(path, binary(64, 4));
    assert.equal(review.ledger.file(path)?.status, 'modified');
    await review.writer.undo(review.ledger.undoAll());
    assert.ok(readFileSync(path).equals(original));
  });

  test(`over ${MAX_KEPT_FILE_BYTES / 1048576} MB: not recorded (so never "created"), and the user is told`, () => {
    const path = join(workspace, 'huge.log');
    writeFileSync(path, bigText(17));
    agentEdits(path, Buffer.concat([bigText(17), Buffer.from('x\n')]));
    assert.deepEqual(review.ledger.files(), []);
    assert.equal(review.notices.length, 1);
    assert.match(review.notices[0] ?? '', /huge\.log.*cannot offer it for review or undo: it is 17\.0 MB, over the 16\.0 MB/);
  });

  test('over the limit and announced only by a diff after the write landed: told, not recorded', () => {
    const path = join(workspace, 'huge.json');
    writeFileSync(path, Buffer.concat([bigText(17), Buffer.from('"b": 2\n')]));
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path, oldText: '"a": 1\n', newText: '"b": 2\n' }] });
    assert.deepEqual(review.ledger.files(), []);
    assert.match(review.notices[0] ?? '', /huge\.json.*cannot offer it for review or undo: it is 17\.0 MB/);
  });

  test('a FIFO named by an edit call is not opened (nothing blocks) and nothing is recorded', (t) => {
    const fifo = join(workspace, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      t.skip('mkfifo is not available here');
      return;
    }
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: fifo }] });
    review.send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    assert.deepEqual(review.ledger.files(), []);
    assert.deepEqual(review.notices, []);
    // Taken away by the agent: told, never recorded as a deleted file Undo would "restore".
    agentEdits(fifo, null, 't2');
    assert.deepEqual(review.ledger.files(), []);
    assert.match(review.notices[0] ?? '', /pipe.*not a regular file/);
  });
});

describe('changes that used to escape review', () => {
  test('the agent dies before its tool call completes: the session ending compares it, and undo restores the bytes', async () => {
    const path = join(workspace, 'a.txt');
    const original = Buffer.from('line 1\r\nline 2\r\n');
    writeFileSync(path, original);
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    writeFileSync(path, 'line 1\r\nLINE 2\r\n');
    review.fs.dispose();
    assert.equal(review.ledger.file(path)?.status, 'modified');
    await review.writer.undo(review.ledger.undoAll());
    assert.ok(readFileSync(path).equals(original));
  });

  test('the write lands before the first tool_call is seen (the 2 ms gap): the diff in it gives the text before', async () => {
    const path = join(workspace, 'gap.ts');
    const original = Buffer.from('\uFEFFconst a = 1;\r\nconst b = 2;\r\n');
    writeFileSync(path, original);
    writeFileSync(path, '\uFEFFconst a = 1;\r\nconst b = 3;\r\n');
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path, oldText: 'const b = 2;', newText: 'const b = 3;' }] });
    review.send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    await review.writer.undo(review.ledger.undoAll());
    assert.equal(onDisk(path), sha256(original));
  });

  test('the diff only in the completing update, after the write: reviewable, undone byte for byte', async () => {
    const path = join(workspace, 'late.txt');
    const original = Buffer.from('alpha\nbeta\n');
    writeFileSync(path, 'alpha\nBETA\n');
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'patch', status: 'in_progress' });
    review.send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'diff', path, oldText: 'beta\n', newText: 'BETA\n' }] });
    await review.writer.undo(review.ledger.undoAll());
    assert.ok(readFileSync(path).equals(original));
  });
});
