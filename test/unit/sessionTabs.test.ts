import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HostToWebview } from '../../src/contract/messages';
import type { HistoryView } from '../../src/contract/sessionTabsView';
import type { ThreadEntry } from '../../src/thread/entries';
import type { TranscriptsState, TranscriptStorage } from '../../src/panel/transcripts';
import { scriptedDefinition, scriptedEnvironment, scriptedPresenter, type ScriptedEnvironment, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';
import { replayThread } from '../support/panelReplay';

function memoryStorage(): TranscriptStorage & { state: TranscriptsState | undefined } {
  const storage = {
    state: undefined as TranscriptsState | undefined,
    read: () => (storage.state ? structuredClone(storage.state) : undefined),
    write: (value: TranscriptsState) => {
      storage.state = structuredClone(value);
    },
  };
  return storage;
}

/** A panel with two scripted agents to choose from. */
function presenter(t: TestScope, storage: TranscriptStorage | null = null, environment: ScriptedEnvironment = scriptedEnvironment(t)) {
  return scriptedPresenter(t, { environment, transcripts: storage, agents: [scriptedDefinition(), scriptedDefinition({ definition: { id: 'other', label: 'Other scripted agent' } })] });
}

const said = (entries: ThreadEntry[]) => entries.flatMap((entry) => (entry.kind === 'agentMessage' ? [entry.text] : []));

describe('conversations as tabs', () => {
  test('two sessions stream at the same time; each tab shows only its own thread', async (t) => {
    const { presenter: panel, posted } = presenter(t);
    await panel.handle({ type: 'ready' });
    const first = panel.currentSession;
    const slow = panel.sendPrompt('slow');
    await waitFor(() => first.thread.lastAgentText().length > 10, 'the first tab streaming');
    await panel.newSession();
    const second = panel.currentSession;
    assert.notEqual(first, second);
    await panel.sendPrompt('echo from the second tab');
    assert.deepEqual(said(second.thread.snapshot()), ['You said: from the second tab']);
    assert.deepEqual(replayThread(posted), second.thread.snapshot(), 'the panel shows the active tab only');
    const tabs = posted.filter((message) => message.type === 'tabsChanged').at(-1);
    assert.ok(tabs?.type === 'tabsChanged' && tabs.tabs.tabs.length === 2 && tabs.tabs.tabs[0]?.busy === true, 'the busy first tab shows activity');
    await first.cancel();
    await slow;
    assert.ok(said(first.thread.snapshot())[0]?.startsWith('w0 w1'));
    assert.ok(!said(first.thread.snapshot()).some((text) => text.includes('second tab')), 'no mixing');
    await panel.handle({ type: 'selectTab', tabId: (tabs.type === 'tabsChanged' ? tabs.tabs.tabs[0]?.id : '') ?? '' });
    assert.equal(panel.currentSession, first);
    assert.deepEqual(replayThread(posted), first.thread.snapshot());
  });

  test('transcripts come back after a reload and the session continues (resume)', async (t) => {
    const storage = memoryStorage();
    const environment = scriptedEnvironment(t);
    const closedWindow = presenter(t, storage, environment);
    const before = closedWindow.presenter;
    await before.sendPrompt('echo remember me');
    const sessionId = before.currentSession.currentSessionId;
    const key = before.currentSession.key;
    closedWindow.dispose();
    assert.equal(storage.state?.open[0]?.sessionId, sessionId);

    const { presenter: after, posted } = presenter(t, storage, environment);
    await after.handle({ type: 'ready' });
    assert.deepEqual(said(replayThread(posted)), ['You said: remember me'], 'the transcript is back before the agent runs');
    assert.equal(after.currentSession.key, key, 'the conversation is the same owner of its changes as before the reload');
    await after.sendPrompt('echo and continue');
    assert.equal(after.currentSession.currentSessionId, sessionId, 'the same agent session was resumed');
    assert.deepEqual(said(after.currentSession.thread.snapshot()), ['You said: remember me', 'You said: and continue']);
  });

  test('a message a reload cut off comes back interrupted; Retry sends its text again, once', async (t) => {
    const storage = memoryStorage();
    storage.state = { activeTabId: 't1', closed: [], open: [{ tabId: 't1', agentId: 'scripted', sessionId: null, title: '', updatedAt: new Date(0).toISOString(), entries: [
      { kind: 'user', id: 'e1', text: 'echo lost to the reload' },
      { kind: 'plan', id: 'e2', items: [{ content: 'answer', priority: 'high', status: 'in_progress' }] },
    ] }] };
    const { presenter: panel, posted } = presenter(t, storage);
    await panel.handle({ type: 'ready' });
    const shown = replayThread(posted);
    assert.deepEqual(shown.map((entry) => (entry.kind === 'user' ? entry.interrupted : entry.kind === 'plan' ? entry.stopped : null)), [true, true]);
    await panel.handle({ type: 'retryMessage', entryId: 'e1' });
    await waitFor(() => said(panel.currentSession.thread.snapshot()).length === 1, 'the answer to the message sent again');
    await panel.handle({ type: 'retryMessage', entryId: 'e1' });
    const after = replayThread(posted);
    assert.deepEqual(after.flatMap((entry) => (entry.kind === 'user' ? [`${entry.text}:${entry.interrupted === true}`] : [])), ['echo lost to the reload:false', 'echo lost to the reload:false']);
    assert.deepEqual(said(after), ['You said: lost to the reload']);
  });

  test('a closed tab is in the history with the agent\'s own sessions; both open again', async (t) => {
    const { presenter: panel, posted } = presenter(t, memoryStorage());
    await panel.handle({ type: 'ready' });
    await panel.sendPrompt('echo kept by tandem');
    const closedTab = posted.filter((message) => message.type === 'tabsChanged' || message.type === 'snapshot').length;
    assert.ok(closedTab > 0);
    const tabId = (panel.state().tabs.activeTabId);
    await panel.newSession();
    await panel.handle({ type: 'closeTab', tabId });
    await panel.handle({ type: 'requestHistory' });
    const history = posted.filter((message): message is Extract<HostToWebview, { type: 'historyChanged' }> => message.type === 'historyChanged').at(-1)?.history as HistoryView;
    const kept = history.items.find((item) => item.source === 'tandem');
    assert.equal(kept?.title, 'echo kept by tandem');
    const fromAgent = history.items.filter((item) => item.source === 'agent');
    assert.equal(fromAgent.length, 0, 'the agent lists the same session, which Tandem already shows once');

    await panel.handle({ type: 'openHistory', key: kept?.key ?? '' });
    assert.deepEqual(said(panel.currentSession.thread.snapshot()), ['You said: kept by tandem']);
    assert.equal(panel.state().tabs.tabs.length, 2);
  });
});
