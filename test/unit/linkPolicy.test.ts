import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { linkTarget, refusalMessage, type LinkTarget, type LinkWorkspace } from '../../src/panel/linkPolicy';
import { tempWorkspace, type TestScope } from '../support/sessionBuilders';

/** A workspace folder with `src/a.ts`, and a folder beside it that is not part of the workspace. */
function layout(t: TestScope): { workspace: LinkWorkspace; root: string; outside: string } {
  const root = tempWorkspace(t, 'tandem-links-');
  const outside = tempWorkspace(t, 'tandem-links-outside-');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  return { workspace: { root, folders: [root] }, root, outside };
}

function reasonOf(target: LinkTarget): string {
  assert.equal(target.kind, 'refused', JSON.stringify(target));
  return target.kind === 'refused' ? target.reason : '';
}

describe('which links the panel opens', () => {
  test('http and https links go out as web links, line anchors included', (t) => {
    const { workspace } = layout(t);
    assert.deepEqual(linkTarget('https://example.com/docs', workspace), { kind: 'web', url: 'https://example.com/docs' });
    assert.deepEqual(linkTarget('http://example.com', workspace), { kind: 'web', url: 'http://example.com/' });
    assert.deepEqual(linkTarget('HTTPS://github.com/o/r/blob/main/a.ts#L12', workspace), { kind: 'web', url: 'https://github.com/o/r/blob/main/a.ts#L12' });
    assert.deepEqual(linkTarget('  https://example.com/  ', workspace), { kind: 'web', url: 'https://example.com/' });
  });

  test('network shares are refused, in either slash', (t) => {
    const { workspace } = layout(t);
    for (const href of ['//host/share', '//host/share/x.ts', '\\\\host\\share', '\\\\host\\share\\x.ts', '/\\host\\share', '\\\\?\\C:\\x']) {
      assert.match(reasonOf(linkTarget(href, workspace)), /network share/, href);
    }
  });

  test('file: links open only inside the workspace, never on another machine', (t) => {
    const { workspace, root, outside } = layout(t);
    assert.match(reasonOf(linkTarget('file:///etc/passwd', workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget('file://host/share/x', workspace)), /another machine \(host\)/);
    assert.match(reasonOf(linkTarget(pathToFileURL(join(outside, 'secret.txt')).href, workspace)), /outside the workspace/);
    assert.deepEqual(linkTarget(`${pathToFileURL(join(root, 'src', 'a.ts')).href}#L4`, workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: 4 });
    assert.deepEqual(linkTarget(pathToFileURL(join(root, 'src', 'a.ts')).href.replace('file://', 'file://localhost'), workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: null });
    assert.match(reasonOf(linkTarget(`${pathToFileURL(root).href}/%2e%2e/${encodeURIComponent(outside.split('/').at(-1) ?? '')}/secret.txt`, workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget(`${pathToFileURL(root).href}/a%2Fb`, workspace)), /not a valid file link/);
    assert.match(reasonOf(linkTarget(`${pathToFileURL(root).href}/a%00b`, workspace)), /control characters/);
  });

  test('absolute paths open inside a workspace folder and are refused outside', (t) => {
    const { workspace, root, outside } = layout(t);
    assert.deepEqual(linkTarget(join(root, 'src', 'a.ts'), workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: null });
    assert.deepEqual(linkTarget(`${join(root, 'src', 'a.ts')}#L12`, workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: 12 });
    assert.match(reasonOf(linkTarget(join(outside, 'secret.txt'), workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget('/etc/passwd', workspace)), /outside the workspace/);
    assert.deepEqual(linkTarget(join(outside, 'secret.txt'), { root, folders: [root, outside] }), { kind: 'file', path: join(outside, 'secret.txt'), line: null }, 'any workspace folder counts');
  });

  test('relative paths resolve against the workspace root, and may not climb out of it', (t) => {
    const { workspace, root } = layout(t);
    assert.deepEqual(linkTarget('src/a.ts', workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: null });
    assert.deepEqual(linkTarget('./src/a.ts#L3', workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: 3 });
    assert.deepEqual(linkTarget('src/../src/a.ts#L2-L9', workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: 2 });
    assert.deepEqual(linkTarget('src/a.ts#L0', workspace), { kind: 'file', path: join(root, 'src', 'a.ts'), line: 1 });
    assert.match(reasonOf(linkTarget('../outside.txt', workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget('src/../../../../etc/passwd#L1', workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget('#L12', workspace)), /names no file/);
    assert.match(reasonOf(linkTarget('src/a.ts', { root: null, folders: [] })), /no workspace folder/);
  });

  test('a symlink inside the workspace that points outside is refused', (t) => {
    const { workspace, root, outside } = layout(t);
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
    assert.match(reasonOf(linkTarget('escape/secret.txt', workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget(join(root, 'secret-link.txt'), workspace)), /outside the workspace/);
    assert.match(reasonOf(linkTarget(pathToFileURL(join(root, 'escape', 'secret.txt')).href, workspace)), /outside the workspace/);
    symlinkSync(join(root, 'src'), join(root, 'src-link'));
    assert.equal(linkTarget('src-link/a.ts', workspace).kind, 'file', 'a link that stays inside opens');
  });

  test('every other scheme is refused by name', (t) => {
    const { workspace } = layout(t);
    const cases: [string, string][] = [
      ['javascript:alert(1)', 'javascript'],
      ['JavaScript:alert(1)', 'javascript'],
      ['data:text/html,<script>alert(1)</script>', 'data'],
      ['vscode:extension/evil.publisher', 'vscode'],
      ['vscode://file/etc/passwd', 'vscode'],
      ['command:workbench.action.terminal.new', 'command'],
      ['command:tandem.signOut?%5B%5D', 'command'],
      ['vscode-remote://ssh-remote+host/etc/passwd', 'vscode-remote'],
      ['mailto:a@example.com', 'mailto'],
    ];
    for (const [href, scheme] of cases) assert.match(reasonOf(linkTarget(href, workspace)), new RegExp(`not ${scheme}: links`), href);
  });

  test('empty, blank, malformed and control-character links are refused', (t) => {
    const { workspace } = layout(t);
    assert.match(reasonOf(linkTarget('', workspace)), /empty/);
    assert.match(reasonOf(linkTarget('   \t ', workspace)), /empty/);
    assert.match(reasonOf(linkTarget('https://', workspace)), /not a valid web address/);
    assert.match(reasonOf(linkTarget('src/a.ts\u0000.png', workspace)), /control characters/);
    assert.match(reasonOf(linkTarget('https://example.com/\nsrc', workspace)), /control characters/);
    if (process.platform !== 'win32') assert.match(reasonOf(linkTarget('C:\\Windows\\win.ini', workspace)), /not a path on this system/);
  });

  test('the refusal is one sentence naming the link and the reason', () => {
    assert.equal(refusalMessage(' file://host/share/x ', 'it names a file on another machine (host)'), 'Tandem did not open the link "file://host/share/x": it names a file on another machine (host).');
    const long = refusalMessage(`javascript:${'x'.repeat(500)}`, 'no');
    assert.ok(long.length < 200 && long.includes('…'));
  });
});
