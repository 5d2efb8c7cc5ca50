/**
 * "Restore to here" in conversations other than the one a message was sent from: a session
 * opened from the agent's own history (its messages replayed with new ids), a conversation
 * continued from an earlier message (a copy of the entries before it), and a conversation whose
 * messages Tandem has no checkpoint of. Driven through the panel's presenter on the scripted
 * agent, files changed through Tandem's real file service in a real folder, checked as bytes.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CheckpointPreviewView, CheckpointsView } from '../../src/contract/checkpointView';
import type { HostToWebview } from '../../src/contract/messages';
import type { ThreadEntry } from '../../src/thread/entries';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { type EditorActions } from '../../src/panel/editorActions';
import type { TranscriptsState } from '../../src/panel/transcripts';
import { stateFromJson, stateToJson } from '../../src/checkpoints/checkpointsIndex';
import { messageCheckpoints, messageContext } from '../../src/checkpoints/checkpointsLookup';
import { checkpointedWorkspace } from '../support/checkpointHarness';
import { onTestEnd, scriptedDefinition, scriptedEnvironmentIn, tempWorkspace, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

const actions: EditorActions = { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined };

function panelOn(t: TestScope, saved?: TranscriptsState, agentEnv: Record<string, string> = {}) {
  const root = tempWorkspace(t, 'tandem-checkpoint-conversations-');
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const project = checkpointedWorkspace(workspace, join(root, 'storage'));
  const posted: HostToWebview[] = [];
  const transcripts = saved ? { read: () => saved, write: () => undefined } : null;
  const presenter = new ChatPresenter(() => [scriptedDefinition({ env: agentEnv })], 'scripted', scriptedEnvironmentIn(workspace), (message) => posted.push(message), actions, null, transcripts, project.service);
  onTestEnd(t, () => {
    presenter.dispose();
    project.dispose();
  });
  const thread = () => presenter.currentSession.thread;
  const userIds = () => thread().snapshot().flatMap((entry) => (entry.kind === 'user' ? [entry.id] : []));
  const updates = () => posted.flatMap((message) => (message.type === 'checkpointUpdate' ? [message.update] : []));
  const at = (name: string) => join(workspace, name);
  /** A message as the user sends it, up to the end of its turn. */
  const send = async (text: string): Promise<void> => {
    const turns = thread().snapshot().filter((entry) => entry.kind === 'turnEnded').length;
    await presenter.handle({ type: 'sendPrompt', text });
    await waitFor(() => thread().snapshot().filter((entry) => entry.kind === 'turnEnded').length > turns, `the turn of ${text} to end`);
  };
  return {
    project, presenter, thread, userIds,
    /** The tab in front, as the panel was last told. */
    activeTabId: () => posted.flatMap((message) => (message.type === 'snapshot' ? [message.state.tabs] : message.type === 'tabsChanged' ? [message.tabs] : [])).at(-1)?.activeTabId ?? '',
    at, send,
    /** The panel opened, then a.txt holds "one", "two" after "echo first" and "three" after "echo second". */
    async twoMessagesChangingA(): Promise<void> {
      await presenter.handle({ type: 'ready' });
      writeFileSync(at('a.txt'), 'one\n');
      await send('echo first');
      project.diskWrite(at('a.txt'), 'two\n');
      await send('echo second');
      project.diskWrite(at('a.txt'), 'three\n');
    },
    /** What the panel last listed for the conversation in front, once the list settles on `messages` user messages. */
    async listed(messages: number): Promise<CheckpointsView> {
      return waitFor(() => {
        const list = updates().flatMap((update) => (update.kind === 'list' ? [update.checkpoints] : [])).at(-1);
        return list && list.messages.length === messages && list.messages.every((message, index) => message.entryId === userIds()[index]) ? list : undefined;
      }, `a checkpoint list of ${messages} messages`, 5_000);
    },
    /** "Restore to here" on a user message (or "Redo restore", without one): the preview the panel shows. */
    async preview(entryId?: string): Promise<CheckpointPreviewView> {
      await presenter.handle({ type: 'checkpointAction', action: entryId === undefined ? { kind: 'previewRedo' } : { kind: 'preview', entryId } });
      const preview = updates().flatMap((update) => (update.kind === 'preview' ? [update.preview] : [])).at(-1);
      assert.ok(preview, 'a preview');
      return preview;
    },
    async restore(shown: CheckpointPreviewView, scope: 'code' | 'conversation'): Promise<void> {
      await presenter.handle({ type: 'checkpointAction', action: { kind: 'restore', previewId: shown.previewId, scope, keepMine: [] } });
    },
  };
}

describe('checkpoints of conversations opened from history or copied', () => {
  test('a session opened from the agent\'s history offers Restore on its replayed messages, and it restores the bytes', async (t) => {
    const { project, presenter, thread, userIds, at, send, listed, preview, restore } = panelOn(t);
    await presenter.handle({ type: 'ready' });
    writeFileSync(at('a.txt'), 'a before\r\n');
    await send('echo first');
    project.diskWrite(at('a.txt'), 'a after\r\n');
    await send('echo second');
    await project.editorWrite(at('b.txt'), 'created\n');
    const sessionId = presenter.currentSession.currentSessionId;
    assert.ok(sessionId);
    const original = presenter.currentSession;

    await presenter.handle({ type: 'openHistory', key: `agent:scripted:${sessionId}` });
    assert.notEqual(presenter.currentSession, original, 'the session opened in a tab of its own');
    await waitFor(() => userIds().length === 2 && thread().lastAgentText() === 'You said: second', 'the replayed messages');
    const list = await listed(2);
    assert.deepEqual(list.messages.map((message) => message.restorable), [true, true]);

    const shown = await preview(userIds()[0] ?? '');
    assert.equal(shown.error, null);
    assert.deepEqual(shown.files.map((file) => [file.label, file.action]), [['a.txt', 'restore'], ['b.txt', 'delete']]);
    await restore(shown, 'code');
    assert.equal(readFileSync(at('a.txt'), 'latin1'), 'a before\r\n');
    assert.equal(existsSync(at('b.txt')), false);
  });

  test('a fork keeps Restore on the messages it copied, and it restores the bytes; what is sent in the fork gets its own', async (t) => {
    const { project, presenter, thread, userIds, at, send, listed, preview, restore, activeTabId, twoMessagesChangingA } = panelOn(t, undefined, { SCRIPTED_AGENT_FORK: '1' });
    await twoMessagesChangingA();
    const original = presenter.currentSession;
    const tabId = activeTabId();
    assert.equal(original.history.fork, true, 'the agent offers session/fork');
    await presenter.handle({ type: 'forkTab', tabId });
    assert.notEqual(presenter.currentSession, original, 'the fork is a tab of its own');
    await waitFor(() => presenter.currentSession.connectionView.phase === 'ready', 'the forked session');
    assert.deepEqual((await listed(2)).messages.map((message) => message.restorable), [true, true]);
    const second = await preview(userIds()[1] ?? '');
    assert.deepEqual(second.files.map((file) => [file.label, file.action]), [['a.txt', 'restore']]);
    assert.match(second.conversation ?? '', /in a fork of this session/);
    await restore(second, 'code');
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'two\n');

    await send('echo in the fork');
    // The scripted agent echoes the whole prompt: the fork's agent was told the files moved back.
    assert.match(thread().lastAgentText(), /^You said: echo in the fork\n\[Note from the editor: the user restored a file to how it was before your message “echo second”: a\.txt\..*\]$/);
    project.diskWrite(at('a.txt'), 'four\n');
    assert.deepEqual((await listed(3)).messages.map((message) => message.restorable), [true, true, true]);
    await restore(await preview(userIds()[2] ?? ''), 'code');
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'two\n');

  });

  test('a conversation continued from an earlier message keeps Restore on the messages it copied, and Redo restore works from it', async (t) => {
    const { presenter, userIds, at, send, listed, preview, restore, twoMessagesChangingA } = panelOn(t);
    await twoMessagesChangingA();
    await send('echo third');
    const original = presenter.currentSession;
    const third = await preview(userIds()[2] ?? '');
    await restore(third, 'conversation');
    assert.notEqual(presenter.currentSession, original);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'three\n', 'only the conversation went back');

    const list = await listed(2);
    assert.deepEqual(list.messages.map((message) => message.restorable), [true, true], 'the copied messages keep their checkpoints');
    const first = await preview(userIds()[0] ?? '');
    assert.deepEqual(first.files.map((file) => [file.label, file.action, file.added, file.removed]), [['a.txt', 'restore', 1, 1]]);
    await restore(first, 'code');
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'one\n');
    assert.equal((await listed(2)).messages[0]?.lastRestored, true, '"Redo restore" sits on the message restored to');
    const redo = await preview();
    assert.deepEqual(redo.files.map((file) => [file.label, file.action]), [['a.txt', 'restore']]);
    await restore(redo, 'code');
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'three\n');
  });

  test('messages Tandem has no checkpoint of say why, and their conversation can still go back', async (t) => {
    const entries: ThreadEntry[] = [
      { kind: 'user', id: 'e1', text: 'echo from another window' },
      { kind: 'agentMessage', id: 'e2', text: 'You said: from another window' },
      { kind: 'user', id: 'e3', text: 'echo later' },
    ];
    const saved: TranscriptsState = { open: [{ tabId: 'tab-elsewhere', agentId: 'scripted', sessionId: null, title: 'Elsewhere', updatedAt: new Date().toISOString(), entries }], activeTabId: 'tab-elsewhere', closed: [] };
    const { presenter, userIds, listed, preview, restore } = panelOn(t, saved);
    await presenter.handle({ type: 'ready' });
    const list = await listed(2);
    assert.deepEqual(list.messages.map((message) => [message.restorable, message.reason]), [[false, list.messages[0]?.reason], [false, list.messages[0]?.reason]]);
    assert.match(list.messages[0]?.reason ?? '', /^Tandem has no checkpoint of the files for this message: it was sent in another window or workspace/);
    const shown = await preview('e3');
    assert.equal(shown.files.length, 0);
    assert.match(shown.error ?? '', /no checkpoint of the files/);
    assert.match(shown.conversation ?? '', /continues in a new tab/);
    const before = presenter.currentSession;
    await restore(shown, 'conversation');
    assert.notEqual(presenter.currentSession, before, 'the conversation went back in a new tab');
    assert.deepEqual(userIds(), ['e1']);
  });
});

describe('which checkpoint a message has', () => {
  const thread = (entries: { kind: string; id: string; text?: string }[]) => ({ length: entries.length, entryAt: (index: number) => entries[index] });
  const checkpoint = (id: string, fields: { tabId: string; messageId: string; label: string; sessionId?: string | null; context?: string | null }) => ({
    id, createdAt: 1, kind: 'message' as const, restoredTo: null, files: new Map(), dropped: null, sessionId: null, context: null, ...fields,
  });

  test('a replay matches in order, with the editor\'s notes ahead of the text; other sessions and reordered texts do not', () => {
    const replay = thread([
      { kind: 'user', id: 'r1', text: '[Note from the editor: the user undid a change]\n\nfix the parser' },
      { kind: 'agentMessage', id: 'r2', text: 'done' },
      { kind: 'user', id: 'r3', text: 'now the tests' },
      { kind: 'user', id: 'r4', text: 'fix the parser' },
    ]);
    const checkpoints = [
      checkpoint('c1', { tabId: 'a', messageId: 'e1', label: 'fix the parser', sessionId: 's1' }),
      checkpoint('c2', { tabId: 'a', messageId: 'e3', label: 'now the tests', sessionId: 's1' }),
      checkpoint('c3', { tabId: 'b', messageId: 'e1', label: 'fix the parser', sessionId: 's2' }),
    ];
    const found = messageCheckpoints(checkpoints, { tabId: 'loaded', sessionId: 's1' }, replay);
    assert.deepEqual([...found].map(([entry, match]) => [entry, match.id]), [['r1', 'c1'], ['r3', 'c2']], 'the repeated text after them has no checkpoint left');
  });

  test('a copy matches by id and context; the conversation\'s own checkpoint wins, and another conversation\'s same id does not match', () => {
    const copy = thread([{ kind: 'user', id: 'e1', text: 'hello' }, { kind: 'agentMessage', id: 'e2', text: 'hi' }, { kind: 'user', id: 'e3', text: 'edit it' }]);
    const other = thread([{ kind: 'user', id: 'e1', text: 'something else' }]);
    const checkpoints = [
      checkpoint('source-e1', { tabId: 'a', messageId: 'e1', label: 'hello', context: messageContext(copy, 0) }),
      checkpoint('other-e1', { tabId: 'c', messageId: 'e1', label: 'something else', context: messageContext(other, 0) }),
      checkpoint('source-e3', { tabId: 'a', messageId: 'e3', label: 'edit it', context: messageContext(copy, 2) }),
      checkpoint('own-e3', { tabId: 'fork', messageId: 'e3', label: 'edit it', context: messageContext(copy, 2) }),
    ];
    const found = messageCheckpoints(checkpoints, { tabId: 'fork', sessionId: null }, copy);
    assert.deepEqual([...found].map(([entry, match]) => [entry, match.id]), [['e1', 'source-e1'], ['e3', 'own-e3']]);
  });

  test('an index written before checkpoints knew their session and context reads back with neither', () => {
    const written = stateToJson({ nextId: 2, checkpoints: [checkpoint('c1', { tabId: 'a', messageId: 'e1', label: 'hello', sessionId: 's', context: 'x' })], left: new Map(), lastRestore: null });
    const older = JSON.parse(JSON.stringify(written)) as { checkpoints: Record<string, unknown>[] };
    for (const entry of older.checkpoints) {
      delete entry.sessionId;
      delete entry.context;
    }
    const [read] = stateFromJson(older).checkpoints;
    assert.deepEqual([read?.messageId, read?.sessionId, read?.context], ['e1', null, null]);
    assert.deepEqual([stateFromJson(JSON.parse(JSON.stringify(written))).checkpoints[0]?.sessionId], ['s']);
  });
});
