/**
 * Checkpoints per user message, on real folders: the agent changes files through the editor and
 * on disk over several turns, and a restore brings back every file's exact bytes (sha256) as
 * they were at the message; "Redo restore" brings back the later state; the user's own changes
 * are found and asked about; copies are shared by hash, bounded, and read back after a reload.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { checkpointedWorkspace, memoryIndex, projectHashes } from '../support/checkpointHarness';
import { sha256 } from '../support/hashes';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let root: string;
let workspace: string;
let storage: string;
let opened: ReturnType<typeof checkpointedWorkspace>[] = [];

beforeEachTest((t) => {
  root = tempWorkspace(t, 'tandem-checkpoints-');
  workspace = join(root, 'workspace');
  storage = join(root, 'storage');
  mkdirSync(workspace);
});
afterEach(() => {
  for (const one of opened) one.dispose();
  opened = [];
});

function open(options: Parameters<typeof checkpointedWorkspace>[2] = {}) {
  const workspaceOpened = checkpointedWorkspace(workspace, storage, options);
  opened.push(workspaceOpened);
  return workspaceOpened;
}

const at = (name: string) => join(workspace, name);

/** Files of every shape: BOM + CRLF, mixed EOLs, no final newline, emoji, bytes that are not text. */
function seedProject(): void {
  mkdirSync(at('src'));
  writeFileSync(at('notes.md'), '\uFEFFline one\r\nline two\r\n');
  writeFileSync(at('src/mixed.txt'), 'a\r\nb\nc\rd');
  writeFileSync(at('src/emoji.ts'), 'export const face = "😀";\n');
  writeFileSync(at('logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x0a]));
  writeFileSync(at('old.txt'), 'to be deleted\n');
}

/** Three turns: edits through the editor and on disk, a created file, a deleted one. */
async function threeTurns(project: ReturnType<typeof open>) {
  const first = await project.prompt('Tidy the notes');
  await project.editorWrite(at('notes.md'), 'line one\nline 2\n');
  project.diskWrite(at('logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x01]));
  project.diskWrite(at('new.txt'), 'created in turn 1\n');
  const atSecond = projectHashes(workspace);
  const second = await project.prompt('Now the sources');
  project.diskWrite(at('src/mixed.txt'), 'a\r\nB\nc\rd');
  project.diskWrite(at('old.txt'), null);
  await project.editorWrite(at('src/emoji.ts'), 'export const face = "🙂";\n');
  await project.editorWrite(at('src/added/deep.ts'), 'export {};\n');
  const third = await project.prompt('Once more');
  await project.editorWrite(at('notes.md'), 'line one\nline 2\nline three\n');
  project.diskWrite(at('logo.bin'), Buffer.from([0x00, 0x01, 0x02]));
  return { first, second, third, atSecond };
}

describe('restore to a checkpoint', () => {
  test('every file changed after the message, by either path, gets back its exact bytes; Redo restore brings back the later state', async () => {
    seedProject();
    const atStart = projectHashes(workspace);
    const project = open();
    const { first } = await threeTurns(project);
    const atEnd = projectHashes(workspace);

    const { plan, outcome } = await project.restoreTo(first.id);
    assert.equal(plan.error, null);
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(plan.files.map((file) => [project.reader.label(file.path), file.action, file.handEdit]), [
      ['logo.bin', 'restore', null],
      ['new.txt', 'delete', null],
      ['notes.md', 'restore', null],
      ['old.txt', 'create', null],
      ['src/added/deep.ts', 'delete', null],
      ['src/emoji.ts', 'restore', null],
      ['src/mixed.txt', 'restore', null],
    ]);
    assert.equal(plan.files.find((file) => file.path === at('logo.bin'))?.binary, true);
    assert.deepEqual(outcome.skipped, []);
    // Empty folders the agent created may stay; every file is exactly as it was.
    assert.deepEqual(projectHashes(workspace), atStart);
    assert.deepEqual(project.ledger.files(), [], 'nothing is left pending: every change was taken back');

    const redo = project.store.lastRestore;
    assert.ok(redo, 'the restore can be taken back');
    const again = await project.restoreTo(redo.id);
    assert.deepEqual(again.outcome.skipped, []);
    assert.deepEqual(projectHashes(workspace), atEnd);
  });

  test('a restore to the middle turn keeps what came before it, and line counts say what changes', async () => {
    seedProject();
    const project = open();
    const { second, atSecond } = await threeTurns(project);
    const { plan } = await project.restoreTo(second.id);
    const notes = plan.files.find((file) => file.path === at('notes.md'));
    assert.deepEqual(notes && { added: notes.added, removed: notes.removed }, { added: 0, removed: 1 });
    assert.deepEqual(projectHashes(workspace), atSecond);
    assert.equal(readFileSync(at('new.txt'), 'utf8'), 'created in turn 1\n');
  });

  test('a file changed by hand after the agent is named and kept when the user says so; restoring it too is undone by Redo restore', async () => {
    writeFileSync(at('a.txt'), 'original\n');
    const project = open();
    const first = await project.prompt('change a');
    project.diskWrite(at('a.txt'), 'agent\n');
    writeFileSync(at('a.txt'), 'agent\nand my own line\n');

    const kept = await project.restoreTo(first.id, [at('a.txt')]);
    assert.match(kept.plan.files[0]?.handEdit ?? '', /changed since Tandem last saw it/);
    assert.deepEqual(kept.outcome.skipped, [{ path: at('a.txt'), reason: 'you kept your version' }]);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'agent\nand my own line\n');

    const restored = await project.restoreTo(first.id);
    assert.deepEqual(restored.outcome.written, [at('a.txt')]);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'original\n');
    const redo = project.store.lastRestore;
    assert.ok(redo);
    await project.restoreTo(redo.id);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'agent\nand my own line\n', 'the hand edit is not lost');
  });

  test('unsaved text in an editor is a hand edit too', async () => {
    writeFileSync(at('b.txt'), 'one\n');
    const project = open();
    const first = await project.prompt('change b');
    await project.editorWrite(at('b.txt'), 'two\n');
    project.documents.edit(at('b.txt'), 'two\ntyped, not saved\n');
    const plan = await project.plan(first.id);
    assert.equal(plan.files[0]?.handEdit, 'it has unsaved changes in an editor');
  });
});

describe('checkpoint storage', () => {
  test('identical content is stored once, however many files and checkpoints hold it', async () => {
    const same = 'the same content\n'.repeat(100);
    for (const name of ['x.txt', 'y.txt', 'z.txt']) writeFileSync(at(name), same);
    const project = open();
    await project.prompt('one');
    for (const name of ['x.txt', 'y.txt', 'z.txt']) project.diskWrite(at(name), `${name}\n`);
    await project.prompt('two');
    await project.prompt('three');
    await project.store.flush();
    const blobs = readdirSync(storage).flatMap((folder) => readdirSync(join(storage, folder)));
    assert.equal(blobs.filter((name) => name === sha256(Buffer.from(same))).length, 1);
    assert.equal(blobs.length, 4, 'the shared earlier content, and each file\'s pending content kept at the later messages');
    assert.equal(project.store.storedBytes, Buffer.byteLength(same) + 3 * 6);
  });

  test('past the checkpoint bound the oldest stop being restorable, say why, and let their copies go', async () => {
    const project = open({ limits: { maxBytes: 1024 * 1024, maxCheckpoints: 2 } });
    writeFileSync(at('a.txt'), 'first\n');
    const first = await project.prompt('one');
    project.diskWrite(at('a.txt'), 'second\n');
    project.ledger.keepAll();
    await project.prompt('two');
    project.diskWrite(at('a.txt'), 'third\n');
    project.ledger.keepAll();
    const third = await project.prompt('three');
    project.diskWrite(at('a.txt'), 'fourth\n');
    await project.store.flush();
    const plan = await project.plan(first.id);
    assert.match(plan.error ?? '', /can no longer be restored: Tandem keeps the last 2 checkpoints/);
    assert.equal(project.store.find(first.id)?.dropped !== null, true);
    const blobs = readdirSync(storage).flatMap((folder) => readdirSync(join(storage, folder)));
    assert.equal(blobs.includes(sha256(Buffer.from('first\n'))), false, 'the dropped copy is gone from disk');
    await project.restoreTo(third.id);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'third\n');
  });

  test('past the byte bound the oldest go first, and a single file larger than the bound is named, not kept', async () => {
    const project = open({ limits: { maxBytes: 1000, maxCheckpoints: 100 } });
    writeFileSync(at('a.txt'), 'a'.repeat(600));
    const first = await project.prompt('one');
    project.diskWrite(at('a.txt'), 'b'.repeat(600));
    const second = await project.prompt('two');
    project.diskWrite(at('a.txt'), 'c');
    await project.store.flush();
    assert.match((await project.plan(first.id)).error ?? '', /at most 1000 bytes of file copies/);
    assert.equal((await project.plan(second.id)).error, null);
    writeFileSync(at('big.txt'), 'x'.repeat(10));
    const third = await project.prompt('three');
    project.diskWrite(at('big.txt'), 'y'.repeat(2000));
    project.diskWrite(at('big.txt'), 'z');
    await project.store.flush();
    assert.equal((await project.plan(third.id)).error, null);
  });

  test('a new store over the same folder and index restores as the first would (window reload, agent crash)', async () => {
    seedProject();
    const atStart = projectHashes(workspace);
    const index = memoryIndex();
    const before = open({ index });
    const { first } = await threeTurns(before);
    await before.store.flush();
    before.dispose();
    opened = [];

    const after = open({ index: memoryIndex(index.state) });
    assert.equal(after.store.list().length, 3);
    assert.equal(after.store.list().find((checkpoint) => checkpoint.tabId === 'tab-1' && checkpoint.messageId === 'e1')?.id, first.id);
    await after.restoreTo(first.id);
    assert.deepEqual(projectHashes(workspace), atStart);
  });
});
