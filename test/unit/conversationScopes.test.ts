/**
 * A conversation works in the scope the composition root gives it: its agent starts in the
 * scope's folder, its edits land there and are reviewed in the scope's own ledger. Two
 * conversations of one window in two scopes (as a conversation in a git worktree will be) do not
 * see each other's folder or changes. Through the real session, disk tracker and ledger, with the
 * scripted agent writing the disk itself.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SessionController } from '../../src/conversation/sessionController';
import { folderScope, type WorkspaceScope } from '../../src/workspace/workspaceScope';
import { reviewedFiles } from '../support/reviewHarness';
import { onTestEnd, scriptedDefinition, scriptedEnvironment, tempWorkspace } from '../support/sessionBuilders';

test('two conversations in two scopes: each agent works in its own folder, each change is in its own review', async (t) => {
  const folders = { one: tempWorkspace(t, 'tandem-scope-one-'), two: tempWorkspace(t, 'tandem-scope-two-') };
  const reviewed = { one: reviewedFiles(folders.one), two: reviewedFiles(folders.two) };
  const scopes = new Map<string, WorkspaceScope>([
    ['conversation-one', folderScope(folders.one, { files: reviewed.one.files })],
    ['conversation-two', folderScope(folders.two, { files: reviewed.two.files })],
  ]);
  const asked: string[] = [];
  const environment = scriptedEnvironment(t);
  environment.workspace = (key) => {
    asked.push(key);
    return scopes.get(key) ?? null;
  };
  const one = new SessionController(scriptedDefinition(), environment, 'conversation-one');
  const two = new SessionController(scriptedDefinition(), environment, 'conversation-two');
  onTestEnd(t, () => {
    one.dispose();
    two.dispose();
  });

  await one.prompt('disk-edit a.txt from the first conversation');
  await two.prompt('disk-edit b.txt from the second conversation');

  assert.deepEqual(asked, ['conversation-one', 'conversation-two'], 'each conversation asked for its scope once, by its key');
  assert.equal(readFileSync(join(folders.one, 'a.txt'), 'utf8'), 'from the first conversation\n');
  assert.equal(readFileSync(join(folders.two, 'b.txt'), 'utf8'), 'from the second conversation\n');
  assert.equal(existsSync(join(folders.two, 'a.txt')) || existsSync(join(folders.one, 'b.txt')), false, 'neither agent wrote into the other folder');
  assert.deepEqual(reviewed.one.ledger.files().map((file) => file.path), [join(folders.one, 'a.txt')]);
  assert.deepEqual(reviewed.two.ledger.files().map((file) => file.path), [join(folders.two, 'b.txt')]);
});

test('a conversation without a scope (no folder open) does not start its agent, and says why', async (t) => {
  const environment = scriptedEnvironment(t);
  environment.workspace = () => null;
  const session = new SessionController(scriptedDefinition(), environment, 'no-folder');
  onTestEnd(t, () => session.dispose());
  assert.equal(await session.start(), false);
  assert.match(session.connectionView.message ?? '', /Open a folder first/);
});
