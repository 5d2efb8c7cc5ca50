import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { parseWebviewMessage, type HostToWebview } from '../../src/protocol/messages';
import { ChatPresenter } from '../../src/session/chatPresenter';
import { DeltaBatcher } from '../../src/session/deltaBatcher';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { waitFor } from '../support/waitFor';
import { replayThread } from '../support/panelReplay';

let workspace: string;
before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'tandem-presenter-'));
});
after(() => rmSync(workspace, { recursive: true, force: true }));

describe('message contract', () => {
  test('valid webview messages parse; malformed ones are rejected with a reason', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'sendPrompt', text: 'hi' }), { ok: true, message: { type: 'sendPrompt', text: 'hi' } });
    assert.deepEqual(parseWebviewMessage({ type: 'answerPermission', requestId: 'p1', optionId: null }).ok, true);
    for (const bad of [null, 'ready', { type: 'nope' }, { type: 'sendPrompt' }, { type: 'sendPrompt', text: '' }, { type: 'runAction', action: 'rm -rf' }]) {
      const parsed = parseWebviewMessage(bad);
      assert.equal(parsed.ok, false, JSON.stringify(bad));
      assert.ok(!parsed.ok && parsed.error.length > 0);
    }
  });

  test('the batcher merges appends per entry and keeps order', async () => {
    const batches: unknown[] = [];
    const batcher = new DeltaBatcher((deltas) => batches.push(deltas), 5);
    batcher.push({ type: 'textAppended', entryId: 'e1', text: 'a' });
    batcher.push({ type: 'textAppended', entryId: 'e1', text: 'b' });
    batcher.push({ type: 'entryAdded', entry: { kind: 'user', id: 'e2', text: 'x' } });
    batcher.push({ type: 'textAppended', entryId: 'e1', text: 'c' });
    await waitFor(() => batches.length > 0, 'a batch');
    assert.deepEqual(batches, [[
      { type: 'textAppended', entryId: 'e1', text: 'ab' },
      { type: 'entryAdded', entry: { kind: 'user', id: 'e2', text: 'x' } },
      { type: 'textAppended', entryId: 'e1', text: 'c' },
    ]]);
  });
});

describe('ChatPresenter', () => {
  test('snapshot on ready, then deltas that rebuild exactly the host thread; a reloaded view gets it all back', async (t) => {
    const posted: HostToWebview[] = [];
    const actions: string[] = [];
    const presenter = new ChatPresenter(() => [scriptedAgentDefinition()], 'scripted', { workspaceRoot: workspace, trusted: true, frames: new FrameStore(), logger: silentLogger },
      (message) => posted.push(message),
      { showLog: () => actions.push('log'), showTraffic: () => actions.push('traffic'), openLink: (href) => actions.push(href), rememberAgent: () => undefined });
    t.after(() => presenter.dispose());

    await presenter.handle({ type: 'ready' });
    assert.equal(posted[0]?.type, 'snapshot');
    await waitFor(() => posted.some((message) => message.type === 'connectionChanged' && message.connection.phase === 'ready'), 'agent ready');
    await presenter.handle({ type: 'sendPrompt', text: 'echo streaming works' });
    await waitFor(() => posted.some((message) => message.type === 'turnChanged' && !message.turn.running), 'turn end');
    const host = presenter.currentSession.thread.snapshot();
    assert.deepEqual(replayThread(posted), host);
    assert.ok(host.some((entry) => entry.kind === 'agentMessage' && entry.text === 'You said: streaming works'));

    presenter.detachView();
    const afterDetach = posted.length;
    await presenter.handle({ type: 'sendPrompt', text: 'echo while hidden' });
    assert.equal(posted.length, afterDetach, 'nothing is posted to a hidden view');
    await presenter.handle({ type: 'ready' });
    const snapshot = posted.slice(afterDetach).find((message) => message.type === 'snapshot');
    assert.ok(snapshot?.type === 'snapshot');
    assert.deepEqual(snapshot.state.entries, presenter.currentSession.thread.snapshot());
    assert.ok(snapshot.state.entries.some((entry) => entry.kind === 'agentMessage' && entry.text === 'You said: while hidden'));

    await presenter.handle({ type: 'runAction', action: 'showTraffic' });
    await presenter.handle({ type: 'openLink', href: 'src/a.ts#L3' });
    assert.deepEqual(actions, ['traffic', 'src/a.ts#L3']);
  });

  test('what the user undid reaches the agent ahead of the next prompt, not the thread', async (t) => {
    const notes = ['[Note: the user undid 1 of 2 changes to a.ts]'];
    const review = {
      view: () => ({ files: [], canRedo: false }),
      onDidChange: () => ({ dispose: () => undefined }),
      act: async () => undefined,
      takePromptNotes: (owner: string) => (owner.startsWith('session-') ? notes.splice(0) : []),
    };
    const presenter = new ChatPresenter(() => [scriptedAgentDefinition()], 'scripted', { workspaceRoot: workspace, trusted: true, frames: new FrameStore(), logger: silentLogger },
      () => undefined, { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined }, review);
    t.after(() => presenter.dispose());
    await presenter.sendPrompt('echo next step');
    // The scripted agent echoes every text block of the prompt, in order.
    assert.equal(presenter.currentSession.thread.lastAgentText(), 'You said: [Note: the user undid 1 of 2 changes to a.ts]echo next step');
    const user = presenter.currentSession.thread.snapshot().find((entry) => entry.kind === 'user');
    assert.equal(user?.kind === 'user' && user.text, 'echo next step');
    await presenter.sendPrompt('echo again');
    assert.equal(presenter.currentSession.thread.lastAgentText(), 'You said: again', 'a note is sent once');
  });
});
