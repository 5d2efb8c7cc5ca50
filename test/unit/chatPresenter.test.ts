import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWebviewMessage } from '../../src/contract/messages';
import { DeltaBatcher } from '../../src/panel/deltaBatcher';
import { scriptedDefinition, scriptedPresenter, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';
import { replayThread } from '../support/panelReplay';

/** A presenter on the scripted agent, its panel ready and the agent connected. */
async function readyScriptedPresenter(t: TestScope) {
  const panel = scriptedPresenter(t);
  await panel.ready();
  return panel;
}

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
    const actions: string[] = [];
    const { presenter, posted } = scriptedPresenter(t, { actions: { showLog: () => actions.push('log'), showTraffic: () => actions.push('traffic'), openLink: (href) => actions.push(href) } });

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

  test('what the user undid reaches the agent after the next prompt\'s own text, not the thread; a slash command goes as typed and the note waits', async (t) => {
    const notes = ['[Note: the user undid 1 of 2 changes to a.ts]'];
    let owner = '';
    const review = {
      view: () => ({ files: [], canRedo: false }),
      onDidChange: () => ({ dispose: () => undefined }),
      act: async () => undefined,
      takePromptNotes: (asking: string) => (asking === owner ? notes.splice(0) : []),
    };
    const { presenter } = scriptedPresenter(t, { review });
    // The conversation that asks is the one whose key owns the change: its tab's id.
    owner = presenter.currentSession.key;
    assert.equal(owner, presenter.state().tabs.activeTabId);
    // Agents read a command from the first text block: it goes alone, exactly as typed.
    await presenter.sendPrompt('/echo now');
    assert.equal(presenter.currentSession.thread.lastAgentText(), 'You said: /echo now');
    await presenter.sendPrompt('echo next step');
    // The scripted agent echoes every text block of the prompt, in order.
    assert.equal(presenter.currentSession.thread.lastAgentText(), 'You said: next step [Note: the user undid 1 of 2 changes to a.ts]');
    const users = presenter.currentSession.thread.snapshot().flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));
    assert.deepEqual(users, ['/echo now', 'echo next step']);
    await presenter.sendPrompt('echo again');
    assert.equal(presenter.currentSession.thread.lastAgentText(), 'You said: again', 'a note is sent once');
  });
  test('messages sent during a turn queue in the host: kept while the panel is hidden and sent as turns end; Stop holds them, Send now goes first', async (t) => {
    const { presenter, posted, session, sentToAgent } = await readyScriptedPresenter(t);
    const queued = () => presenter.state().queue;
    const idle = () => waitFor(() => !session().turnView.running && queued().items.length === 0, 'turn and queue done', 15_000);

    void presenter.handle({ type: 'sendPrompt', text: 'slow' });
    await waitFor(() => session().turnView.running, 'slow turn running');
    void presenter.handle({ type: 'sendPrompt', text: 'echo one' });
    void presenter.handle({ type: 'sendPrompt', text: 'echo two' });
    const lastQueue = posted.filter((message) => message.type === 'queueChanged').at(-1);
    assert.deepEqual(lastQueue?.type === 'queueChanged' && lastQueue.queue.items.map((item) => item.text), ['echo one', 'echo two']);
    assert.deepEqual(sentToAgent(), ['slow'], 'the agent has only the running turn');

    presenter.detachView();
    await presenter.handle({ type: 'ready' });
    const snapshot = posted.filter((message) => message.type === 'snapshot').at(-1);
    assert.deepEqual(snapshot?.type === 'snapshot' && snapshot.state.queue.items.map((item) => item.text), ['echo one', 'echo two'], 'a reloaded panel gets the queue back');
    presenter.detachView();
    // The turn ends while nobody looks: the queue still goes out, in order.
    await session().cancel();
    await idle();
    assert.deepEqual(sentToAgent(), ['slow', 'echo one', 'echo two']);
    assert.equal(session().thread.lastAgentText(), 'You said: two');
    await presenter.handle({ type: 'ready' });

    void presenter.handle({ type: 'sendPrompt', text: 'slow' });
    await waitFor(() => session().turnView.running, 'second slow turn');
    void presenter.handle({ type: 'sendPrompt', text: 'echo three' });
    void presenter.handle({ type: 'sendPrompt', text: 'echo four' });
    const four = queued().items.find((item) => item.text === 'echo four');
    assert.ok(four);
    await presenter.handle({ type: 'queueAction', action: 'sendNow', id: four.id });
    await idle();
    assert.deepEqual(sentToAgent().slice(3), ['slow', 'echo four', 'echo three'], 'Send now stops the turn and goes ahead of the rest');

    void presenter.handle({ type: 'sendPrompt', text: 'slow' });
    await waitFor(() => session().turnView.running, 'third slow turn');
    void presenter.handle({ type: 'sendPrompt', text: 'echo five' });
    await presenter.handle({ type: 'cancelTurn' });
    await waitFor(() => !session().turnView.running, 'stopped');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(queued(), { items: [queued().items[0]], paused: true, steerable: false });
    assert.equal(sentToAgent().at(-1), 'slow', 'after Stop the queue waits for the user');
    const edited = queued().items[0];
    assert.ok(edited);
    await presenter.handle({ type: 'queueAction', action: 'remove', id: edited.id });
    assert.deepEqual(queued(), { items: [], paused: false, steerable: false });
    await presenter.handle({ type: 'sendPrompt', text: 'echo six' });
    await idle();
    assert.deepEqual(sentToAgent().slice(6), ['slow', 'echo six']);
  });
  test('a queue held because the agent died goes out, agent restarted, when the user sends again', async (t) => {
    const { presenter, session, sentToAgent } = await readyScriptedPresenter(t);
    void presenter.handle({ type: 'sendPrompt', text: 'slow' });
    await waitFor(() => session().turnView.running, 'slow turn running');
    void presenter.handle({ type: 'sendPrompt', text: 'crash' });
    void presenter.handle({ type: 'sendPrompt', text: 'echo held' });
    await presenter.handle({ type: 'queueAction', action: 'sendNow', id: presenter.state().queue.items[0]?.id ?? '' });
    await waitFor(() => session().connectionView.phase === 'exited', 'the agent crashed', 15_000);
    await waitFor(() => presenter.state().queue.paused, 'the queue is held');
    assert.deepEqual(presenter.state().queue.items.map((item) => item.text), ['echo held']);
    assert.deepEqual(sentToAgent(), ['slow', 'crash']);

    await presenter.handle({ type: 'sendPrompt', text: 'echo after' });
    await waitFor(() => !session().turnView.running && presenter.state().queue.items.length === 0, 'queue sent', 15_000);
    assert.deepEqual(sentToAgent(), ['slow', 'crash', 'echo held', 'echo after']);
    assert.equal(session().thread.lastAgentText(), 'You said: after');
  });

  test('the agent list says which agents are installed, once the lookup answers', async (t) => {
    const missing = scriptedDefinition({ definition: { id: 'missing', label: 'Missing agent', command: 'no-such-agent-binary' } });
    const { presenter, posted } = scriptedPresenter(t, { agents: [scriptedDefinition(), missing] });
    await presenter.handle({ type: 'ready' });
    const listed = await waitFor(() => posted.filter((message) => message.type === 'agentsChanged').at(-1), 'the agents with their lookup');
    assert.deepEqual(listed.type === 'agentsChanged' && listed.agents.map((agent) => `${agent.id}:${agent.installed}`), ['scripted:true', 'missing:false']);
  });
});
