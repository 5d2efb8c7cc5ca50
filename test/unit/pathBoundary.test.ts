import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { followLinks, resolveAgentPath } from '../../src/files/pathBoundary';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let root: string;
let workspace: string;
let outside: string;

const inside = (path: string) => resolveAgentPath(path, workspace, [workspace]);

beforeEachTest((t) => {
  root = tempWorkspace(t, 'tandem-boundary-');
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(workspace, 'src', 'a.ts'), 'a');
});

describe('a link whose target is missing', () => {
  test('counts as outside, even when its target would be inside, and its real path is the target', () => {
    symlinkSync(join(outside, 'new.txt'), join(workspace, 'out.txt'));
    symlinkSync(join(workspace, 'missing.txt'), join(workspace, 'in.txt'));
    const out = inside(join(workspace, 'out.txt'));
    assert.deepEqual({ inside: out.inside, danglingLink: out.danglingLink, realPath: out.realPath }, { inside: false, danglingLink: true, realPath: join(outside, 'new.txt') });
    assert.deepEqual([inside('in.txt').inside, inside('in.txt').danglingLink], [false, true]);
  });

  test('a dangling folder link anywhere in the path counts as outside', () => {
    symlinkSync(join(outside, 'gone'), join(workspace, 'dir'));
    symlinkSync('../gone', join(workspace, 'src', 'up'));
    for (const path of ['dir/new.txt', 'dir/deeper/new.txt', 'src/up/x.txt']) {
      assert.deepEqual([inside(path).inside, inside(path).danglingLink], [false, true], path);
    }
  });

  test('a link loop counts as outside instead of hanging', () => {
    symlinkSync(join(workspace, 'loop-b'), join(workspace, 'loop-a'));
    symlinkSync(join(workspace, 'loop-a'), join(workspace, 'loop-b'));
    assert.deepEqual([inside('loop-a/x').inside, inside('loop-a/x').danglingLink], [false, true]);
  });

  test('a missing file behind a link that resolves is only a new file, not a dangling link', () => {
    symlinkSync(join(workspace, 'src'), join(workspace, 'src-link'));
    const fresh = inside('src-link/new.ts');
    assert.deepEqual({ inside: fresh.inside, danglingLink: fresh.danglingLink, realPath: fresh.realPath }, { inside: true, danglingLink: false, realPath: join(workspace, 'src', 'new.ts') });
    assert.equal(followLinks(join(workspace, 'src-link', 'a.ts')).realPath, join(workspace, 'src', 'a.ts'));
  });
});

describe('string tricks never turn an outside path inside', () => {
  test('siblings sharing a prefix, .., trailing slashes, case and Unicode forms', () => {
    for (const path of [`${workspace}2/x`, `${workspace}/../ws2/x`, `${workspace}/..`, `${workspace}//..//outside//x`, '../outside/x', join(root, 'WS', 'x'), `${workspace}/../ws\u0301/x`]) {
      assert.equal(inside(path).inside, false, path);
    }
    for (const path of [`${workspace}/`, `${workspace}/src/`, 'src/./a.ts', `${workspace}/src/../src/a.ts`]) {
      assert.equal(inside(path).inside, true, path);
    }
  });

  test('a NUL byte or a file URI of another machine names no file', () => {
    assert.equal(inside('src/a.ts\0/../../outside/x').unusable, 'it contains a NUL byte');
    assert.equal(inside('src/a.ts\0').inside, false);
    assert.match(inside('file://elsewhere/etc/passwd').unusable ?? '', /file URI/);
    assert.equal(inside(`${pathToFileURL(join(workspace, 'src'))}/a.ts%00`).unusable, 'it contains a NUL byte');
  });

  test('file URIs resolve to the file they name', () => {
    assert.deepEqual([inside(pathToFileURL(join(workspace, 'src', 'a.ts')).href).inside, inside(pathToFileURL(join(workspace, 'src', 'a.ts')).href).path], [true, join(workspace, 'src', 'a.ts')]);
    assert.equal(inside(`${pathToFileURL(workspace)}/%2e%2e/outside/x`).inside, false);
    assert.equal(inside(`FILE://${join(outside, 'x')}`).inside, false);
  });
});
