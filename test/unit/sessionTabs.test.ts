import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { HostToWebview } from '../../src/contract/messages';
import type { HistoryView } from '../../src/contract/sessionTabsView';
import type { ThreadEntry } from '../../src/contract/viewModel';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import type { TranscriptsState, TranscriptStorage } from '../../src/panel/transcripts';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { waitFor } from '../support/waitFor';
import { replayThread } from '../support/panelReplay';

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'tandem-tabs-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

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

function presenter(posted: HostToWebview[], storage: TranscriptStorage | null = null): ChatPresenter {
  return new ChatPresenter(() => [scriptedAgentDefinition(), { ...scriptedAgentDefinition(), id: 'other', label: 'Other scripted agent' }], 'scripted',
    { workspaceRoot: workspace, trusted: true, frames: new FrameStore(), logger: silentLogger },
    (message) => posted.push(message),
    { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined },
    null, storage);
}

const said = (entries: ThreadEntry[]) => entries.flatMap((entry) => (entry.kind === 'agentMessage' ? [entry.text] : []));

describe('conversations as tabs', () => {
  test('two sessions stream at the same time; each tab shows only its own thread', async (t) => {
    const posted: HostToWebview[] = [];
    const panel = presenter(posted);
    t.after(() => panel.dispose());
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
    const before = presenter([], storage);
    await before.sendPrompt('echo remember me');
    const sessionId = before.currentSession.currentSessionId;
    before.dispose();
    assert.equal(storage.state?.open[0]?.sessionId, sessionId);

    const posted: HostToWebview[] = [];
    const after = presenter(posted, storage);
    t.after(() => after.dispose());
    await after.handle({ type: 'ready' });
    assert.deepEqual(said(replayThread(posted)), ['You said: remember me'], 'the transcript is back before the agent runs');
    await after.sendPrompt('echo and continue');
    assert.equal(after.currentSession.currentSessionId, sessionId, 'the same agent session was resumed');
    assert.deepEqual(said(after.currentSession.thread.snapshot()), ['You said: remember me', 'You said: and continue']);
  });

  test('a closed tab is in the history with the agent\'s own sessions; both open again', async (t) => {
    const posted: HostToWebview[] = [];
    const panel = presenter(posted, memoryStorage());
    t.after(() => panel.dispose());
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
