// The names cards give files: relative inside the workspace folder, absolute and marked outside it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pathLabel, titleWithRelativePaths } from '../../src/contract/pathLabel';

const root = '/home/ada/sample-workspace';

describe('pathLabel', () => {
  test('a file inside the workspace folder is named relative to it, the full path kept for the tooltip', () => {
    assert.deepEqual(pathLabel(`${root}/src/app.txt`, root), { label: 'src/app.txt', full: `${root}/src/app.txt`, outside: false });
    assert.deepEqual(pathLabel(`${root}/`, root), { label: 'sample-workspace', full: `${root}/`, outside: false }, 'the folder itself is named');
    assert.equal(pathLabel(`${root}/src/app.txt`, `${root}/`).label, 'src/app.txt', 'a trailing separator on the root');
  });

  test('a file outside stays absolute and is marked, also when .. or a longer folder name only looks inside', () => {
    for (const path of ['/etc/passwd', `${root}/../secrets.txt`, `${root}2/src/app.txt`, '/home/ada']) {
      assert.deepEqual(pathLabel(path, root), { label: path, full: path, outside: true }, path);
    }
    assert.deepEqual(pathLabel(`${root}/src/../README.md`, root), { label: 'README.md', full: `${root}/src/../README.md`, outside: false });
  });

  test('Windows paths compare without case and take either separator', () => {
    assert.deepEqual(pathLabel('c:\\Users\\Ada\\App\\src\\main.ts', 'C:\\Users\\ada\\app'), { label: 'src/main.ts', full: 'c:\\Users\\Ada\\App\\src\\main.ts', outside: false });
    assert.equal(pathLabel('D:\\other\\x.ts', 'C:\\Users\\ada\\app').outside, true);
  });

  test('relative paths and panels without a folder show the path as the agent sent it, unmarked', () => {
    assert.deepEqual(pathLabel('src/app.txt', root), { label: 'src/app.txt', full: 'src/app.txt', outside: false });
    assert.deepEqual(pathLabel('/etc/passwd', null), { label: '/etc/passwd', full: '/etc/passwd', outside: false });
  });
});

describe('titleWithRelativePaths', () => {
  test('the workspace prefix leaves paths in a title, other text and similar folders stay', () => {
    assert.equal(titleWithRelativePaths(`Edit ${root}/src/a.ts and ${root}/b.ts`, root), 'Edit src/a.ts and b.ts');
    assert.equal(titleWithRelativePaths(`Read ${root}2/x.ts`, root), `Read ${root}2/x.ts`);
    assert.equal(titleWithRelativePaths('Write /etc/hosts', root), 'Write /etc/hosts');
    assert.equal(titleWithRelativePaths(`List ${root}`, `${root}/`), `List ${root}`);
    assert.equal(titleWithRelativePaths(`Edit ${root}/a.ts`, null), `Edit ${root}/a.ts`);
  });
});
