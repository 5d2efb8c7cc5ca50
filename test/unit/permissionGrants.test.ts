import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { normalizeCommand } from '../../src/permissions/grantSubjects';
import { PermissionBroker } from '../../src/permissions/permissionBroker';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { ThreadModel } from '../../src/thread/threadModel';
import { tempWorkspace, type TestScope } from '../support/sessionBuilders';

/** Claude's edit card and Gemini's, as recorded (test/fixtures/recordings). */
const claudeEdit: acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Yes', kind: 'allow_once' },
  { optionId: 'allow-with-updates', name: 'Yes, allow all edits during this session', kind: 'allow_always' },
  { optionId: 'reject', name: 'No', kind: 'reject_once' },
];
const geminiEdit: acp.PermissionOption[] = [
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];
const plain: acp.PermissionOption[] = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'always', name: 'Always allow', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' },
];

/** One window's policy (its grant store survives `restart`) and a broker per conversation. */
function editorWindow(t: TestScope) {
  const root = tempWorkspace(t);
  const store = new MemoryGrantStore();
  let policy = new PermissionPolicy({ workspaceRoots: () => [root], autoAllowKinds: () => [], store });
  const broker = () => {
    const thread = new ThreadModel();
    const permissions = new PermissionBroker(thread);
    permissions.usePolicy(policy.forAgent('claude-code'));
    let next = 0;
    /** Sends a request; the card the user sees (null when Tandem answered by itself) and the agent's answer. */
    const request = (sessionId: string, toolCall: Omit<acp.ToolCall, 'toolCallId'>, options: acp.PermissionOption[]) => {
      const toolCallId = `t${next++}`;
      const answer = permissions.request({ sessionId, toolCall: { toolCallId, ...toolCall }, options }, new AbortController().signal);
      const card = thread.toolCall(toolCallId);
      return { answer, card: card?.permission ?? null, note: () => thread.toolCall(toolCallId)?.permissionNote ?? null, choose: (optionId: string | null) => card?.permission && permissions.answer(card.permission.requestId, optionId) };
    };
    return { request };
  };
  const edit = (name: string): Omit<acp.ToolCall, 'toolCallId'> => ({ title: `Edit ${name}`, kind: 'edit', locations: [{ path: join(root, name) }], rawInput: { file_path: join(root, name) } });
  return { root, store, broker, edit, restart: () => { policy = new PermissionPolicy({ workspaceRoots: () => [root], autoAllowKinds: () => [], store }); } };
}

describe('a grant lasts as long as its words say', () => {
  test('"Yes, allow all edits during this session" covers that session only, is never stored, and the card said so before the click', async (t) => {
    const w = editorWindow(t);
    const conversation = w.broker();
    const first = conversation.request('session-1', w.edit('a.ts'), claudeEdit);
    assert.deepEqual(first.card?.options.map((option) => option.lifetime ?? null), [null, 'for this session only', null]);
    first.choose('allow-with-updates');
    assert.deepEqual(await first.answer, { outcome: { outcome: 'selected', optionId: 'allow-once' } }, 'the agent keeps nothing');

    const again = conversation.request('session-1', w.edit('b.ts'), claudeEdit);
    assert.equal(again.card, null, 'the same session is not asked again');
    assert.match(again.note() ?? '', /^Allowed by your rule: Edits inside the workspace, for this session only$/);

    const other = w.broker().request('session-2', w.edit('c.ts'), claudeEdit);
    assert.ok(other.card, 'a new conversation asks again');
    other.choose('reject');
    assert.deepEqual(w.store.load(), [], 'nothing outlives the window');
    w.restart();
    const resumed = w.broker().request('session-1', w.edit('d.ts'), claudeEdit);
    assert.ok(resumed.card, 'nor the editor restarting');
    resumed.choose('reject');
  });

  test('Gemini\'s "Allow for this session" is for that session too; a plain "Always allow" stands until revoked, and says so', async (t) => {
    const w = editorWindow(t);
    const gemini = w.broker().request('g-1', w.edit('a.ts'), geminiEdit);
    assert.equal(gemini.card?.options.find((option) => option.kind === 'allow_always')?.lifetime, 'for this session only');
    gemini.choose('proceed_always');
    await gemini.answer;
    const asked = w.broker().request('g-2', w.edit('b.ts'), geminiEdit);
    assert.ok(asked.card, 'another session is asked');
    asked.choose('cancel');

    const always = w.broker().request('s-1', w.edit('c.ts'), plain);
    assert.equal(always.card?.options.find((option) => option.kind === 'allow_always')?.lifetime, 'from now on in this workspace, until you revoke it');
    always.choose('always');
    await always.answer;
    assert.equal(w.store.load().length, 1);
    w.restart();
    assert.equal(w.broker().request('s-2', w.edit('d.ts'), plain).card, null, 'a standing grant covers later conversations');
  });

  test('an "always" for a command the raw input does not name is answered once and the card says so', async (t) => {
    const w = editorWindow(t);
    const untold = w.broker().request('s', { title: 'Run tests', kind: 'execute' }, plain);
    assert.equal(untold.card?.options.find((option) => option.kind === 'allow_always')?.lifetime, 'this time only: nothing is remembered for this call');
    untold.choose('always');
    assert.deepEqual(await untold.answer, { outcome: { outcome: 'selected', optionId: 'yes' } });
    const next = w.broker().request('s', { title: 'Run tests', kind: 'execute' }, plain);
    assert.ok(next.card, 'asked again');
    next.choose('no');
    assert.deepEqual(w.store.load(), []);
  });
});

describe('command grants are keyed by the exact command', () => {
  test('blanks outside quotes are one; quoted text is kept as is', () => {
    assert.equal(normalizeCommand('  npm \t run   test  '), 'npm run test');
    assert.equal(normalizeCommand('echo "a   b"  c'), 'echo "a   b" c');
    assert.equal(normalizeCommand("echo 'x  \\' y"), "echo 'x  \\' y");
    assert.notEqual(normalizeCommand('echo "a  b"'), normalizeCommand('echo "a b"'));
  });
});

describe('dismissing a permission chooses by option kind, never by position', () => {
  const dismiss = async (t: TestScope, options: acp.PermissionOption[]) => {
    const w = editorWindow(t);
    const card = w.broker().request('s', { title: 'Run rm -rf build', kind: 'execute', rawInput: { command: 'rm -rf build' } }, options);
    assert.ok(card.choose(null));
    return card.answer;
  };

  test('the reject-once option wherever it is offered', async (t) => {
    assert.deepEqual(await dismiss(t, plain), { outcome: { outcome: 'selected', optionId: 'no' } });
    assert.deepEqual(await dismiss(t, [...geminiEdit].reverse()), { outcome: { outcome: 'selected', optionId: 'cancel' } });
  });

  test('no reject option offered: answered cancelled, never the first (allow) option', async (t) => {
    assert.deepEqual(await dismiss(t, plain.slice(0, 2)), { outcome: { outcome: 'cancelled' } });
    assert.deepEqual(await dismiss(t, [{ optionId: 'always', name: 'Always allow', kind: 'allow_always' }, { optionId: 'yes', name: 'Allow', kind: 'allow_once' }]), { outcome: { outcome: 'cancelled' } });
  });

  test('only "reject always" offered: cancelled, since a dismissal is not a standing "no"', async (t) => {
    assert.deepEqual(await dismiss(t, [{ optionId: 'never', name: 'No, never', kind: 'reject_always' }, ...plain.slice(0, 1)]), { outcome: { outcome: 'cancelled' } });
  });
});
