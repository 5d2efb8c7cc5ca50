import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assertLeadsTo, ensureRegularFile, readRegularFile, writeRegularFile, writeTarget } from '../../src/files/fileAccess';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let root: string;
let workspace: string;
let outside: string;

beforeEachTest((t) => {
  root = tempWorkspace(t, 'tandem-access-');
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(join(workspace, 'real'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
  writeFileSync(join(workspace, 'real', 'a.txt'), 'a\n');
});

describe('where an editor write lands (undo and agent writes alike)', () => {
  test('inside paths land on their real file, links inside followed', () => {
    symlinkSync(join(workspace, 'real'), join(workspace, 'alias'));
    assert.equal(writeTarget(join(workspace, 'alias', 'a.txt'), [workspace]), join(workspace, 'real', 'a.txt'));
    assert.equal(writeTarget(join(workspace, 'alias', 'new', 'b.txt'), [workspace]), join(workspace, 'real', 'new', 'b.txt'));
  });

  test('a path that leads out through a link, or through a link to nothing, is refused', () => {
    symlinkSync(outside, join(workspace, 'out'));
    symlinkSync(join(outside, 'gone.txt'), join(workspace, 'gone.txt'));
    assert.throws(() => writeTarget(join(workspace, 'out', 'secret.txt'), [workspace]), /leads out of the workspace through a link/);
    assert.throws(() => writeTarget(join(workspace, 'gone.txt'), [workspace]), /which does not exist; files are never created through a link/);
    assert.throws(() => writeTarget(join(workspace, 'x\0'), [workspace]), /NUL byte/);
  });

  test('an outside path the user allowed is written only by its real name', () => {
    assert.equal(writeTarget(join(outside, 'secret.txt'), [workspace]), join(outside, 'secret.txt'));
    symlinkSync(outside, join(root, 'elsewhere'));
    assert.throws(() => writeTarget(join(root, 'elsewhere', 'secret.txt'), [workspace]), /through a link/);
  });

  test('a link changed after the check is noticed right before the write', () => {
    const link = join(workspace, 'link.txt');
    symlinkSync(join(workspace, 'real', 'a.txt'), link);
    const checked = writeTarget(link, [workspace]);
    assert.doesNotThrow(() => assertLeadsTo(link, checked));
    rmSync(link);
    symlinkSync(join(outside, 'secret.txt'), link);
    assert.throws(() => assertLeadsTo(link, checked), /now leads to .*outside\/secret\.txt instead of/);
    rmSync(link);
    symlinkSync(join(outside, 'planted.txt'), link);
    assert.throws(() => assertLeadsTo(link, checked), /which does not exist/);
  });
});

describe('opening checked real paths', () => {
  test('exact bytes are written and read back, creating folders', async () => {
    const file = join(workspace, 'real', 'deep', 'er', 'b.txt');
    await writeRegularFile(file, '\uFEFFone\r\nlone\rcr');
    assert.deepEqual(readFileSync(file), Buffer.from('\uFEFFone\r\nlone\rcr'));
    await writeRegularFile(file, 'short');
    assert.deepEqual(await readRegularFile(file, 100), Buffer.from('short'));
    assert.equal(await readRegularFile(join(workspace, 'missing.txt'), 100), null);
  });

  test('a link at the checked path (swapped in after the check) is neither followed nor created through', async () => {
    const planted = join(workspace, 'real', 'planted.txt');
    symlinkSync(join(outside, 'created.txt'), planted);
    await assert.rejects(ensureRegularFile(planted), /changed while it was being opened/);
    await assert.rejects(writeRegularFile(planted, 'x'), /changed while it was being opened/);
    await assert.rejects(readRegularFile(planted, 100), /changed while it was being opened/);
    assert.equal(existsSync(join(outside, 'created.txt')), false);
    const swapped = join(workspace, 'real', 'swapped.txt');
    symlinkSync(join(outside, 'secret.txt'), swapped);
    await assert.rejects(writeRegularFile(swapped, 'x'), /changed while it was being opened/);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'top secret\n');
  });

  test('a folder on the checked path replaced by a link out: the opened file is not the checked one, nothing is written', async () => {
    const checked = join(workspace, 'real', 'secret.txt');
    writeFileSync(checked, 'inside\n');
    rmSync(join(workspace, 'real'), { recursive: true });
    symlinkSync(outside, join(workspace, 'real'));
    await assert.rejects(writeRegularFile(checked, 'planted'), /changed while it was being opened/);
    await assert.rejects(readRegularFile(checked, 100), /changed while it was being opened/);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'top secret\n');
  });

  test('an empty file is created only when nothing is there; a pipe is refused without waiting for a writer', async () => {
    const fresh = join(workspace, 'real', 'sub', 'fresh.txt');
    await ensureRegularFile(fresh);
    assert.equal(readFileSync(fresh, 'utf8'), '');
    await ensureRegularFile(join(workspace, 'real', 'a.txt'));
    assert.equal(readFileSync(join(workspace, 'real', 'a.txt'), 'utf8'), 'a\n');
    const pipe = join(workspace, 'real', 'pipe');
    execFileSync('mkfifo', [pipe]);
    await assert.rejects(ensureRegularFile(pipe), /named pipe/);
    await assert.rejects(writeRegularFile(pipe, 'x'), /named pipe/);
    assert.throws(() => assertLeadsTo(pipe, pipe), /named pipe/);
  });

  test('a file over the limit is refused by its size, not by reading it', async () => {
    const file = join(workspace, 'real', 'big.txt');
    writeFileSync(file, Buffer.alloc(1.5 * 1048576, 97));
    await assert.rejects(readRegularFile(file, 1048576), /big\.txt is 1\.5 MB, over the 1 MB limit/);
    assert.equal((await readRegularFile(file, 2 * 1048576))?.length, 1.5 * 1048576);
  });
});
