/**
 * Restores against a project that moved on: files that changed on disk after the preview, that
 * became binary or a folder, folders that are gone, copies that were lost, an index that is not
 * one. Each gets a sentence, nothing is overwritten without the user's yes, and nothing is lost.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../src/checkpoints/checkpoints';
import { stateFromJson, stateToJson, emptyState } from '../../src/checkpoints/checkpointsIndex';
import { restoreSummary } from '../../src/checkpoints/checkpointsRestore';
import { silentLogger, type Logger } from '../../src/util/logger';
import { DirectoryBlobs } from '../../src/checkpoints/checkpointDisk';
import { checkpointedWorkspace, memoryIndex } from '../support/checkpointHarness';
import { sha256 } from '../support/hashes';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let root: string;
let workspace: string;
let storage: string;
let project: ReturnType<typeof checkpointedWorkspace>;

beforeEachTest((t) => {
  root = tempWorkspace(t, 'tandem-checkpoint-input-');
  workspace = join(root, 'workspace');
  storage = join(root, 'storage');
  mkdirSync(workspace);
  project = checkpointedWorkspace(workspace, storage);
});
afterEach(() => project.dispose());

const at = (name: string) => join(workspace, name);

describe('restoring over a project that changed', () => {
  test('a file that became a folder is named and left alone; the other files are restored', async () => {
    writeFileSync(at('a.txt'), 'a\n');
    writeFileSync(at('b.txt'), 'b\n');
    const first = await project.prompt('go');
    project.diskWrite(at('a.txt'), 'A\n');
    project.diskWrite(at('b.txt'), 'B\n');
    rmSync(at('a.txt'));
    mkdirSync(at('a.txt'));
    writeFileSync(at('a.txt/inside.txt'), 'mine\n');
    const { plan, outcome } = await project.restoreTo(first.id);
    assert.deepEqual(plan.problems, ['a.txt: a folder is in its place now, so it is left as it is.']);
    assert.deepEqual(outcome.written, [at('b.txt')]);
    assert.equal(readFileSync(at('a.txt/inside.txt'), 'utf8'), 'mine\n');
    assert.equal(readFileSync(at('b.txt'), 'utf8'), 'b\n');
  });

  test('a file that became binary is asked about, shown without line counts, and restored byte for byte only on yes', async () => {
    writeFileSync(at('data.txt'), 'text\n');
    const first = await project.prompt('go');
    project.diskWrite(at('data.txt'), 'text, by the agent\n');
    const binary = Buffer.from([0x00, 0xff, 0x10, 0x80]);
    writeFileSync(at('data.txt'), binary);
    const plan = await project.plan(first.id);
    const file = plan.files[0];
    assert.deepEqual(file && [file.binary, file.added, file.removed], [true, 0, 0]);
    assert.match(file?.handEdit ?? '', /no longer text/);
    await project.restoreTo(first.id, [at('data.txt')]);
    assert.deepEqual(readFileSync(at('data.txt')), binary, 'kept: not overwritten without a yes');
    await project.restoreTo(first.id);
    assert.equal(readFileSync(at('data.txt'), 'utf8'), 'text\n');
  });

  test('a file in a folder that is gone comes back with its folder, and the preview says so', async () => {
    mkdirSync(at('deep/er'), { recursive: true });
    writeFileSync(at('deep/er/file.ts'), 'export const x = 1;\n');
    const first = await project.prompt('go');
    project.diskWrite(at('deep/er/file.ts'), 'export const x = 2;\n');
    rmSync(at('deep'), { recursive: true });
    const { plan } = await project.restoreTo(first.id);
    assert.equal(plan.files[0]?.action, 'create');
    assert.equal(plan.files[0]?.note, 'its folder deep is gone and is created again');
    assert.equal(readFileSync(at('deep/er/file.ts'), 'utf8'), 'export const x = 1;\n');
  });

  test('a file that changes between the preview and the restore is not overwritten', async () => {
    writeFileSync(at('a.txt'), 'a\n');
    const first = await project.prompt('go');
    project.diskWrite(at('a.txt'), 'agent\n');
    const plan = await project.plan(first.id);
    writeFileSync(at('a.txt'), 'typed after the preview\n');
    const outcome = await project.restorer.restore(plan, new Set(), 'go');
    assert.deepEqual(outcome.skipped, [{ path: at('a.txt'), reason: 'it changed after the preview; look again before restoring it' }]);
    assert.equal(outcome.restorePoint, null);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'typed after the preview\n');
  });

  test('a copy lost from the storage folder is named, and its file left as it is', async () => {
    writeFileSync(at('a.txt'), 'the original\n');
    const first = await project.prompt('go');
    project.diskWrite(at('a.txt'), 'agent\n');
    await project.store.flush();
    const hash = sha256(Buffer.from('the original\n'));
    rmSync(join(storage, hash.slice(0, 2), hash));
    const { plan, outcome } = await project.restoreTo(first.id);
    assert.deepEqual(plan.problems, ['a.txt: the copy Tandem kept of it is missing or damaged, so it is left as it is.']);
    assert.deepEqual(outcome.written, []);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'agent\n');
  });

  test('a damaged copy (its bytes no longer match its hash) is not written back', async () => {
    writeFileSync(at('a.txt'), 'the original\n');
    const first = await project.prompt('go');
    project.diskWrite(at('a.txt'), 'agent\n');
    await project.store.flush();
    const hash = sha256(Buffer.from('the original\n'));
    writeFileSync(join(storage, hash.slice(0, 2), hash), 'tampered\n');
    const { plan } = await project.restoreTo(first.id);
    assert.equal(plan.problems.length, 1);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'agent\n');
  });

  test('the summary names what was restored, what was left and why', () => {
    const sentence = restoreSummary({ restorePoint: null, written: ['/w/a', '/w/b'], skipped: [{ path: '/w/c', reason: 'you kept your version' }] },
      ['d: a folder is in its place now, so it is left as it is.'], (path) => path.slice(3), 'before your message “go”');
    assert.equal(sentence, 'Restored 2 files to how they were before your message “go”: a, b. "Redo restore" brings back what they held. Left as it is: c (you kept your version). d: a folder is in its place now, so it is left as it is.');
  });
});

describe('the checkpoint index', () => {
  test('one that is not an index starts afresh with a warning instead of failing', () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (line: string) => warnings.push(line) };
    const store = new CheckpointStore(new DirectoryBlobs(storage), { read: () => ({ version: 1, nextId: 'x' }), write: async () => undefined }, undefined, logger);
    assert.deepEqual(store.list(), []);
    assert.match(warnings[0] ?? '', /could not be read, so they start afresh/);
    store.dispose();
  });

  test('round trips through JSON with paths and copies interned once', async () => {
    writeFileSync(at('a.txt'), 'a\n');
    await project.prompt('one');
    project.diskWrite(at('a.txt'), 'b\n');
    await project.prompt('two');
    await project.store.flush();
    const json = project.index.state.get('index');
    const state = stateFromJson(json);
    assert.deepEqual(stateToJson(state), json);
    assert.equal((json as { paths: string[] }).paths.length, 1);
    assert.throws(() => stateFromJson({ ...stateToJson(emptyState()), blobs: [['not a hash', 1]] }), /bad blobs/);
  });

  test('copies no index refers to (a window that ended mid-write) are swept on open', async () => {
    mkdirSync(join(storage, 'ab'), { recursive: true });
    const orphan = 'ab'.padEnd(64, '0');
    writeFileSync(join(storage, 'ab', orphan), 'orphan');
    const fresh = new CheckpointStore(new DirectoryBlobs(storage), memoryIndex());
    await fresh.flush();
    assert.equal(existsSync(join(storage, 'ab', orphan)), false);
    assert.deepEqual(readdirSync(join(storage, 'ab')), []);
    fresh.dispose();
  });
});
