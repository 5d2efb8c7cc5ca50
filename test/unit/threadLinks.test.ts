import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HostToWebview } from '../../src/contract/messages';
import type { ThreadEntry } from '../../src/thread/entries';
import { conversationFrames } from '../../src/inspector/conversationFrames';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { readRecording, recordingHeader, writeRecording } from '../../src/inspector/recording';
import { RecordingReplay } from '../../src/replay/panel/recordingReplay';
import { REPLAY_NOTICE } from '../../src/replay/panel/replayTab';
import { silentLogger } from '../../src/util/logger';
import { onTestEnd, scriptedPresenter, tempWorkspace } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

const reveals = (posted: readonly HostToWebview[]) => posted.filter((message) => message.type === 'revealToolCall');

describe('cards and frames, linked both ways', () => {
  test('"Show frames" on a card asks for the inspector of that tool call', async (t) => {
    const asked: string[] = [];
    const panel = scriptedPresenter(t, { actions: { showFrames: (toolCallId) => asked.push(toolCallId) } });
    await panel.ready();
    await panel.presenter.sendPrompt('tool');
    assert.ok(panel.session().thread.toolCall('read-1'));
    await panel.presenter.handle({ type: 'showFrames', toolCallId: 'read-1' });
    assert.deepEqual(asked, ['read-1']);
  });

  test('"Show in thread" brings the card\'s conversation to the front, then the card into view', async (t) => {
    const panel = scriptedPresenter(t);
    await panel.ready();
    await panel.presenter.sendPrompt('tool');
    const first = panel.presenter.state().tabs.activeTabId;
    await panel.presenter.newSession();
    assert.notEqual(panel.presenter.state().tabs.activeTabId, first);
    const before = panel.posted.length;
    assert.equal(panel.presenter.revealToolCall('read-1'), true);
    const after = panel.posted.slice(before);
    const snapshot = after.findIndex((message) => message.type === 'snapshot');
    const reveal = after.findIndex((message) => message.type === 'revealToolCall');
    assert.equal(panel.presenter.state().tabs.activeTabId, first, 'the conversation with the card is in front');
    assert.ok(snapshot >= 0 && snapshot < reveal, 'the card is in the webview before it is revealed');
    const shown = after[snapshot];
    assert.ok(shown?.type === 'snapshot' && shown.state.entries.some((entry) => entry.kind === 'toolCall' && entry.tool.toolCallId === 'read-1'));
    assert.deepEqual(after[reveal], { type: 'revealToolCall', toolCallId: 'read-1' });
    assert.equal(panel.presenter.revealToolCall('no-such-call'), false);
    assert.equal(reveals(panel.posted.slice(before)).length, 1, 'nothing is revealed for a card no tab shows');
  });

  test('a reveal the panel missed while it was away is done when it comes back', async (t) => {
    const panel = scriptedPresenter(t);
    await panel.ready();
    await panel.presenter.sendPrompt('tool');
    panel.presenter.detachView();
    assert.equal(panel.presenter.revealToolCall('read-1'), true);
    const before = panel.posted.length;
    await panel.presenter.handle({ type: 'ready' });
    const back = panel.posted.slice(before);
    assert.equal(back[0]?.type, 'snapshot');
    assert.deepEqual(reveals(back), [{ type: 'revealToolCall', toolCallId: 'read-1' }]);
  });
});

describe('a replay in the chat panel', () => {
  test('plays into a read-only tab with the recorded cards; nothing the user does there reaches an agent, and it is no transcript', async (t) => {
    const live = scriptedPresenter(t);
    await live.ready();
    await live.presenter.sendPrompt('tool');
    await live.presenter.sendPrompt('echo after the tool');
    const all = live.environment.frames.frames();
    const frames = conversationFrames(all, buildFrameIndex(all), new Set([live.session().currentSessionId as string]));
    const recording = readRecording(await writeRecording(recordingHeader(frames, null, new Date()), frames));
    const liveEntries = live.session().thread.snapshot();

    const saved: unknown[] = [];
    const panel = scriptedPresenter(t, { transcripts: { read: () => undefined, write: (state) => saved.push(state) } });
    await panel.ready();
    const replay = new RecordingReplay(recording, { speed: 'instant', logger: silentLogger, workspaceRoot: tempWorkspace(t), waitMs: 2000 });
    onTestEnd(t, () => replay.dispose());
    panel.presenter.openReplay(replay.session);
    assert.deepEqual(await replay.play(), []);
    const tabs = panel.presenter.state().tabs;
    assert.equal(tabs.tabs.length, 2);
    assert.equal(panel.presenter.currentSession, replay.session, 'the replay is in front');
    const entries = panel.presenter.state().entries;
    assert.equal(entries[0]?.kind === 'notice' && entries[0].text, REPLAY_NOTICE);
    // The notice came first, so entry ids are one on from the live ones.
    const content = (list: readonly ThreadEntry[]) => list.map(({ id: _id, ...entry }) => entry);
    assert.deepEqual(content(entries.slice(1)), content(liveEntries), 'the same thread, cards and all');

    const framesBefore = replay.frames.frames().length;
    await panel.presenter.handle({ type: 'sendPrompt', text: 'this must go nowhere' });
    await panel.presenter.handle({ type: 'runAction', action: 'restartAgent' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(replay.frames.frames().length, framesBefore, 'no frame went to the replayed agent');
    const after = panel.presenter.state().entries;
    assert.deepEqual(after.slice(0, entries.length), entries, 'the thread is as recorded');
    assert.deepEqual(after.slice(entries.length).map((entry) => entry.kind === 'notice' && entry.text), ['Nothing was sent: this tab replays a recording. Open a new conversation to talk to an agent.'], 'and says why nothing was sent');
    assert.ok(panel.presenter.revealToolCall('read-1'), 'its cards can be shown from the inspector');

    await panel.presenter.handle({ type: 'closeTab', tabId: tabs.activeTabId });
    await waitFor(() => panel.presenter.state().tabs.tabs.length === 1, 'the replay tab closed');
    panel.dispose();
    const last = saved.at(-1) as { open: unknown[]; closed: unknown[] } | undefined;
    assert.ok(last, 'transcripts were saved');
    assert.equal(JSON.stringify(last).includes('after the tool'), false, 'the replay is in no transcript or history');
  });
});
