import assert from 'node:assert/strict';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import type { ToolCallView } from '../../src/thread/entries';
import type { ToolKindView } from '../../src/acp/toolKinds';
import { executionControlReason, hasShellExpansion } from '../../src/files/executionControlFiles';
import { PermissionBroker } from '../../src/permissions/permissionBroker';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { ThreadModel } from '../../src/thread/threadModel';
import { newToolCallView } from '../../src/thread/toolCallMapping';
import { tempWorkspace } from '../support/sessionBuilders';

/** Every file the list names, as an agent would write it. */
const controlling = [
  '.git', '.git/config', '.git/hooks/pre-commit', '.git/info/attributes', '.gitattributes', '.gitmodules',
  '.husky/pre-push', '.pre-commit-config.yaml',
  '.vscode/settings.json', '.vscode/tasks.json', '.vscode/launch.json', '.vscode/mcp.json', 'team.code-workspace',
  '.devcontainer/devcontainer.json', '.devcontainer.json',
  '.claude/settings.json', '.claude/settings.local.json', '.claude/hooks/start.sh', '.claude/commands/deploy.md', '.mcp.json',
  '.gemini/settings.json', '.codex/config.toml', '.cursor/mcp.json', '.cursor/rules/style.mdc',
  '.github/workflows/ci.yml', '.github/actions/setup/action.yml', '.gitlab-ci.yml', '.circleci/config.yml',
  'package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.yarn/releases/yarn-4.1.cjs', '.yarn/plugins/tool.cjs', '.pnpmfile.cjs',
  '.envrc', '.bashrc', '.bash_profile', '.profile', '.zshrc', '.zshenv', '.zprofile', '.config/fish/config.fish',
  '.gitconfig', '.config/git/config', '.ssh/config', '.ssh/authorized_keys',
  'eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', '.eslintrc.js', '.eslintrc.cjs',
  'prettier.config.js', 'prettier.config.mjs', 'prettier.config.cjs', '.prettierrc.js', '.prettierrc.cjs',
  'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', 'lefthook-local.yml', '.lefthook-local.yaml', 'lefthook.json', 'lefthook.toml',
  '.lintstagedrc', '.lintstagedrc.json', '.lintstagedrc.yaml', '.lintstagedrc.mjs', 'lint-staged.config.js',
  'commitlint.config.js', 'commitlint.config.ts', '.commitlintrc.js', '.commitlintrc.cjs',
  'mise.toml', '.mise.toml', 'mise.local.toml', '.mise.local.toml', 'mise/config.toml', '.mise/config.toml', '.config/mise/config.toml', '.config/mise.toml',
];

/** Names that look close and run nothing. */
const lookAlikes = [
  'src/git/config.ts', 'docs/.vscode-notes.md', '.gitignore', '.vscode/extensions.json', 'my.git/config', 'git/hooks/x',
  '.github/ISSUE_TEMPLATE/bug.md', '.github/CODEOWNERS', 'Makefile', 'scripts/build.sh', 'src/package.json.ts', 'package-lock.json',
  'README.md', 'CLAUDE.md', 'AGENTS.md', 'src/claude/settings.json', 'docs/npmrc.md', 'src/a~b.ts', 'notes/backup~.txt',
  'docs/eslint.config.md', 'src/eslint.ts', 'prettier.md', 'lefthook.md', 'docs/lefthook.yml.md', 'src/commitlint.ts', 'mise.md', 'premise.toml', 'src/mise/notes.md',
];

describe('files that control what runs', () => {
  const root = '/w/project';

  test('each listed file counts, at the workspace root and in a nested package', () => {
    for (const path of controlling) {
      assert.ok(executionControlReason(join(root, path), [root]), path);
      assert.ok(executionControlReason(join(root, 'packages', 'app', path), [root]), `packages/app/${path}`);
      assert.ok(executionControlReason(path, [root]), `${path} named relative to the workspace`);
    }
  });

  test('look-alikes do not count', () => {
    for (const path of lookAlikes) assert.equal(executionControlReason(join(root, path), [root]), null, path);
  });

  test('spellings a file system reads as the same file count too: case, trailing dots, streams, short names, ignorable code points', () => {
    for (const path of ['.GIT/config', '.Git/Hooks/post-checkout', '.git./config', '.git::$INDEX_ALLOCATION/hooks/x', 'GIT~1/config', 'Package.JSON', '.vscode /tasks.json', '.g\u200cit/config', '.claude\ufeff/settings.json']) {
      assert.ok(executionControlReason(join(root, path), [root]), path);
    }
  });

  test('a folder above the workspace root with such a name does not make every file count', () => {
    assert.equal(executionControlReason('/home/u/.config/git/work/src/a.ts', ['/home/u/.config/git/work']), null);
  });

  test('a symlink that leads to such a file counts as that file', (t) => {
    const workspace = tempWorkspace(t);
    mkdirSync(join(workspace, '.git'));
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n');
    symlinkSync(join(workspace, '.git', 'config'), join(workspace, 'innocent.txt'));
    assert.ok(executionControlReason(join(workspace, 'innocent.txt'), [workspace]));
  });

  test('a hard-linked file counts: another of its names may be a hook', (t) => {
    const workspace = tempWorkspace(t);
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(workspace, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    writeFileSync(join(workspace, 'alone.sh'), '#!/bin/sh\n');
    linkSync(join(workspace, '.git', 'hooks', 'pre-commit'), join(workspace, 'lint.sh'));
    assert.match(executionControlReason(join(workspace, 'lint.sh'), [workspace]) ?? '', /hard-linked/);
    assert.equal(executionControlReason(join(workspace, 'alone.sh'), [workspace]), null);
  });

  test('paths a shell would expand are recognised; ordinary characters are not', () => {
    for (const path of ['~/x', '~', '~root/.ssh/config', '$HOME/.bashrc', '${HOME}/x', '%USERPROFILE%\\x', '$(pwd)/x', '/w/`id`']) assert.ok(hasShellExpansion(path), path);
    for (const path of ['/w/a~b.ts', '/w/price$', '/w/50%', '/w/src/~tmp']) assert.equal(hasShellExpansion(path), false, path);
  });
});

describe('permission policy: files that control what runs are asked every time', () => {
  const tool = (toolKind: ToolKindView, path: string): ToolCallView => ({ ...newToolCallView('t'), toolKind, title: `${toolKind} ${path}`, locations: [{ path, line: null }] });
  const options: acp.PermissionOption[] = [
    { optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'always', name: 'Always', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' },
  ];

  test('one "Always" on an ordinary edit, and auto-allowed edits, cover none of them', (t) => {
    const workspace = tempWorkspace(t);
    const store = new MemoryGrantStore();
    const policy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => ['edit', 'delete', 'move'], store });
    const agent = policy.forAgent('claude');
    assert.equal(agent.answered(tool('edit', join(workspace, 'src/a.ts')), options, 'always', 's'), 'yes');
    assert.equal(store.load().length, 1, 'the ordinary edit was granted');
    for (const path of controlling) {
      for (const kind of ['edit', 'delete', 'move'] as const) assert.equal(agent.decide(tool(kind, join(workspace, path)), options, 's'), null, `${kind} ${path}`);
    }
    assert.equal(agent.decide(tool('edit', join(workspace, 'src/b.ts')), options, 's')?.optionId, 'yes', 'ordinary edits stay allowed');
  });

  test('"Always" on such a file answers the agent "once" and keeps no grant, so the next edit is asked again', (t) => {
    const workspace = tempWorkspace(t);
    const store = new MemoryGrantStore();
    const policy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => [], store });
    const agent = policy.forAgent('claude');
    const hooks = tool('edit', join(workspace, '.git/hooks/pre-commit'));
    assert.equal(agent.answered(hooks, options, 'always', 's'), 'yes');
    assert.deepEqual(store.load(), []);
    assert.equal(agent.decide(hooks, options, 's'), null);
    assert.match(agent.alwaysAskedBecause(hooks) ?? '', /^\.git\/hooks\/pre-commit controls what runs \(git runs hooks .*\): asked every time\.$/);
    assert.equal(agent.answered(hooks, options, 'no', 's'), 'no');
  });

  test('reading such a file is an ordinary read', (t) => {
    const workspace = tempWorkspace(t);
    const policy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => ['read'], store: new MemoryGrantStore() });
    const read = tool('read', join(workspace, 'package.json'));
    assert.equal(policy.forAgent('a').decide(read, options, 's')?.optionId, 'yes');
    assert.equal(policy.forAgent('a').alwaysAskedBecause(read), null);
  });

  test('a path under ~ or $HOME never counts as inside, even though it resolves below the cwd', (t) => {
    const workspace = tempWorkspace(t);
    const policy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => ['read', 'edit'], store: new MemoryGrantStore() });
    const agent = policy.forAgent('a');
    for (const path of ['~/notes.txt', '$HOME/notes.txt', '${HOME}/notes.txt']) {
      assert.equal(agent.decide(tool('read', path), options, 's'), null, path);
      assert.equal(agent.decide(tool('edit', path), options, 's'), null, path);
    }
  });

  test('the card says why it is asked and offers no "Always"', async (t) => {
    const workspace = tempWorkspace(t);
    const thread = new ThreadModel();
    const broker = new PermissionBroker(thread);
    broker.usePolicy(new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => ['edit'], store: new MemoryGrantStore() }).forAgent('a'));
    const path = join(workspace, '.vscode', 'tasks.json');
    const answer = broker.request({ sessionId: 's', toolCall: { toolCallId: 't1', title: 'Write tasks.json', kind: 'edit', locations: [{ path }] }, options }, new AbortController().signal);
    const card = thread.toolCall('t1');
    assert.match(card?.permissionNote ?? '', /^\.vscode\/tasks\.json controls what runs .*asked every time\.$/);
    assert.deepEqual(card?.permission?.options.map((option) => option.kind), ['allow_once', 'reject_once']);
    assert.ok(card?.permission && broker.answer(card.permission.requestId, 'yes'));
    assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'yes' } });
  });
});
