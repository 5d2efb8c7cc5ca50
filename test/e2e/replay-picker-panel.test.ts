// A replayed recording in the panel's webview bundle in Chromium with the extension's CSP: the
// agent picker names the recorded agent, though no configured agent is it, and picking a
// configured agent opens a new conversation with it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { conversationFrames } from '../../src/inspector/conversationFrames';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { readRecording, recordingHeader, writeRecording } from '../../src/inspector/recording';
import { RecordingReplay } from '../../src/replay/panel/recordingReplay';
import { silentLogger } from '../../src/util/logger';
import { panelPerTest, scriptedPanelPresenter } from '../support/panelPerTest';
import { scriptedDefinition, scriptedEnvironment, scriptedSession, tempWorkspace } from '../support/sessionBuilders';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();

describe('the agent picker of a replay tab', () => {
  test('shows the recorded agent, selected and not pickable, when no configured agent is it; picking a configured agent opens a new conversation', { timeout: 120_000 }, async (t) => {
    const recordedEnvironment = scriptedEnvironment(t);
    const recorded = scriptedSession(t, { environment: recordedEnvironment });
    await recorded.start();
    await recorded.prompt('echo recorded words');
    const all = recordedEnvironment.frames.frames();
    const frames = conversationFrames(all, buildFrameIndex(all), new Set([recorded.currentSessionId ?? '']));
    const recording = readRecording(await writeRecording(recordingHeader(frames, recordedEnvironment.workspaceRoot, new Date()), frames));
    assert.equal(recording.header.agent?.title, 'Scripted agent');

    const harness = await panel(t);
    // The settings name another agent only: the recorded one is not configured.
    const configured = scriptedDefinition({ definition: { id: 'other', label: 'Other agent', description: 'Configured in the settings' } });
    const created = scriptedPanelPresenter(t, harness, { agents: [configured] });
    const page = harness.page;
    const replay = new RecordingReplay(recording, { speed: 'instant', logger: silentLogger, workspaceRoot: tempWorkspace(t), waitMs: 2000 });
    t.after(() => replay.dispose());
    created.openReplay(replay.session);
    assert.deepEqual(await replay.play(), []);
    await page.locator('.agent-message', { hasText: 'You said: recorded words' }).waitFor({ timeout: 30_000 });

    const picker = page.locator('#agent-picker');
    const shown = () => picker.evaluate((node) => ({
      value: (node as HTMLElement & { value: string }).value,
      options: [...node.querySelectorAll('vscode-option')].map((option) => ({ label: option.textContent, disabled: option.hasAttribute('disabled') })),
      // What the closed picker shows, from the component's own rendering.
      face: node.shadowRoot?.querySelector('.select-face')?.textContent?.trim() ?? null,
    }));
    const replayed = await shown();
    assert.deepEqual(replayed.options, [{ label: 'Other agent', disabled: false }, { label: 'Scripted agent (replay)', disabled: true }]);
    assert.equal(replayed.value, 'replay:scripted-agent');
    assert.equal(replayed.face, 'Scripted agent (replay)', 'the closed picker names the recorded agent');
    await screenshot(page, 'webview-replay-agent-picker');

    const tabsBefore = await page.locator('#tabs-bar .tab').count();
    await picker.click();
    await picker.locator('li.option', { hasText: 'Other agent' }).click();
    await page.locator('#tabs-bar .tab').nth(tabsBefore).waitFor({ timeout: 30_000 });
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    assert.equal(created.state().selectedAgentId, 'other');
    assert.deepEqual(await shown().then((after) => ({ value: after.value, face: after.face, labels: after.options.map((option) => option.label) })),
      { value: 'other', face: 'Other agent', labels: ['Other agent'] }, 'a new conversation with the picked agent; the recorded entry is gone');
    assert.deepEqual(harness.pageErrors, []);
  });
});
