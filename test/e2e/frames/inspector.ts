// The frame inspector in a real VS Code: code-server runs the packaged .vsix, Chromium drives the
// workbench, the scripted agent answers. Cards and frames link both ways, and a recording saved
// from one conversation replays into the same cards in a read-only tab of the panel.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { answerFileDialog, waitForFile } from '../../support/fileDialog';
import { freshConversation, send } from '../../support/panelUser';
import type { TandemWorkbench } from '../../support/tandemWorkbench';
import { runCommand, screenshot, webviewFrame } from '../../support/workbench';

let page: Page;
let panel: Frame;
let tmp: string;

async function turnEnded(count: number): Promise<void> {
  try {
    await panel.locator('.turn-ended').nth(count - 1).waitFor({ state: 'attached', timeout: 60_000 });
  } catch (error) {
    // A turn that never ends says what the panel showed instead.
    const status = await panel.locator('.connection-status').first().getAttribute('class').catch(() => null);
    const thread = await panel.locator('#thread').innerText().catch(() => '(thread not readable)');
    await screenshot(page, 'e2e-inspector-failure').catch(() => undefined);
    throw new Error(`turn ${count} did not end: status ${status}; thread: ${thread.slice(-1500)}`, { cause: error });
  }
}

/** Starts a palette command whose work goes on in dialogs and quick picks of its own. */
async function startCommand(title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
  await page.keyboard.type(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
}

/**
 * The text of each tool card and message of the thread in front, in order; a message's "Restore
 * to here" is a control that shows once its checkpoint is known, not part of what was said.
 */
async function renderedCards(frame: Frame): Promise<string[]> {
  const texts = await frame.locator('.tool-card .tool-header, .tool-card .tool-locations, .tool-card .tool-text, .agent-message, .user-message').allInnerTexts();
  return texts.map((text) => text.replace(/\n?Restore to here$/, ''));
}

/** The settings of this file's scripted agent entry: with session options, so the replay has pickers to show read-only. */
export const INSPECTOR_AGENT_ENV = { SCRIPTED_AGENT_OPTIONS: 'config' };

/** Registers the inspector checks on the shared workbench, whose scripted agent has INSPECTOR_AGENT_ENV. */
export function describeInspector(workbench: () => TandemWorkbench): void {
  describe('frame inspector in code-server', () => {
    before(async () => {
      ({ page, tmp } = workbench());
      // Found again, and on a conversation of its own: the tests before these used the panel too.
      panel = await webviewFrame(page, '#tandem-root', 30_000);
      await freshConversation(panel);
    });

    test('"Show frames" opens the inspector on that call, "Show in thread" returns to the card; a saved recording replays into the same cards', { timeout: 300_000 }, async () => {
      // The scripted agent's cards are known in advance: picked as a user picks an agent.
      await panel.locator('#agent-picker').click();
      await panel.locator('#agent-picker li.option', { hasText: 'Scripted agent' }).click();
      await panel.locator('#tabs-bar .tab.active', { hasText: 'Scripted agent' }).waitFor({ timeout: 30_000 });
      await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
      await send(panel, 'tool');
      await turnEnded(1);
      await send(panel, 'echo the cards are linked');
      await turnEnded(2);
      const card = panel.locator('.tool-card[data-tool-call-id="read-1"]');
      await card.waitFor({ timeout: 30_000 });
      const liveCards = await renderedCards(panel);
      assert.ok(liveCards.some((text) => text.includes('Read README.md')), JSON.stringify(liveCards));

      await card.locator('.show-frames-link').click();
      const inspector = await webviewFrame(page, '#inspector-root .frame-row[data-index]', 60_000);
      const chip = inspector.locator('.tool-chip');
      await chip.waitFor({ state: 'visible', timeout: 20_000 });
      assert.match(await chip.innerText(), /read-1/);
      const rows = inspector.locator('.frame-row[data-index]');
      await rows.first().waitFor({ timeout: 20_000 });
      const shownRows = await rows.allInnerTexts();
      assert.ok(shownRows.length >= 2, `the call's tool_call and its update: ${JSON.stringify(shownRows)}`);
      assert.ok(shownRows.every((text) => text.includes('read-1')), `only frames of read-1: ${JSON.stringify(shownRows)}`);
      assert.match(await inspector.locator('.frame-count').innerText(), /^\d+ of \d+ frames$/);
      await screenshot(page, 'e2e-inspector-tool-call');

      await rows.first().click();
      const back = inspector.getByRole('button', { name: 'Show in thread' });
      await back.waitFor({ timeout: 20_000 });
      await back.click();
      panel = await webviewFrame(page, '.tool-card[data-tool-call-id="read-1"]', 30_000);
      await panel.waitForFunction(() => document.activeElement?.getAttribute('data-tool-call-id') === 'read-1', undefined, { timeout: 20_000 });
      const inView = await panel.locator('.tool-card[data-tool-call-id="read-1"]').evaluate((node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
      assert.ok(inView, 'the card is in view');
      await screenshot(page, 'e2e-inspector-show-in-thread');

      await runCommand(page, 'Tandem: Show Fidelity Report');
      const preview = await webviewFrame(page, 'h1:has-text("Fidelity report")', 30_000);
      await preview.locator('h2', { hasText: 'Permission coverage' }).waitFor({ timeout: 20_000 });
      await screenshot(page, 'e2e-fidelity-report');

      const recording = join(tmp, 'conversation.tandem.ndjson');
      await startCommand('Tandem: Save Recording…');
      await answerFileDialog(page, recording);
      await waitForFile(recording);
      const lines = readFileSync(recording, 'utf8').trim().split('\n');
      assert.ok(lines.length > 10, 'a header and the frames');
      assert.match(lines[0] ?? '', /"tandemRecording":1/);

      await startCommand('Tandem: Replay Recording…');
      await answerFileDialog(page, recording);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Instantly' }).first().click({ timeout: 20_000 });
      panel = await webviewFrame(page, '#tandem-root', 30_000);
      await panel.locator('#tabs-bar .tab.active', { hasText: '(replay)' }).waitFor({ timeout: 30_000 });
      await panel.locator('.notice', { hasText: 'A replay of a recording' }).waitFor({ timeout: 30_000 });
      await panel.locator('.turn-ended').nth(1).waitFor({ state: 'attached', timeout: 60_000 });
      assert.deepEqual(await renderedCards(panel), liveCards, 'the replay shows the same cards and messages');
      await screenshot(page, 'e2e-replay-tab');

      // The replay's cards show the replay's own frames.
      await panel.locator('.tool-card[data-tool-call-id="read-1"] .show-frames-link').click();
      const replayed = await webviewFrame(page, '#inspector-root', 30_000);
      await replayed.locator('.inspector-note', { hasText: 'A replay: nothing was run, read or written.' }).waitFor({ timeout: 20_000 });
      assert.match(await replayed.locator('.inspector-title').innerText(), /\(replay\)/);
      assert.ok((await replayed.locator('.frame-row[data-index]').allInnerTexts()).every((text) => text.includes('read-1')));
      panel = await webviewFrame(page, '#tandem-root', 30_000);

      // Its controls say, to the eye and to a screen reader, that nothing is sent; typing and Enter send nothing.
      const box = panel.locator('#composer-input textarea');
      await panel.locator('#read-only-reason', { hasText: 'A replay: nothing is sent' }).waitFor({ timeout: 10_000 });
      assert.equal(await box.getAttribute('readonly'), '', 'the message box is read-only');
      assert.match(await box.getAttribute('aria-label') ?? '', /read-only\. A replay: nothing is sent/);
      assert.equal(await panel.locator('#send-button').getAttribute('disabled'), '', 'Send is disabled');
      const pickers = panel.locator('#config-pickers select, #config-pickers button');
      assert.ok(await pickers.count() > 0, 'the recorded session options are shown');
      assert.deepEqual(await pickers.evaluateAll((nodes) => nodes.map((node) => (node as HTMLSelectElement).disabled && (node as HTMLSelectElement).title.includes('A replay: nothing is sent'))), Array(await pickers.count()).fill(true), 'every option picker is disabled and says why');
      await screenshot(page, 'e2e-replay-read-only');
      const before = await renderedCards(panel);
      await box.click();
      await page.keyboard.type('this goes nowhere');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(1000);
      assert.equal(await box.inputValue(), '', 'nothing could be typed');
      assert.deepEqual(await renderedCards(panel), before, 'nothing is sent from a replay');
    });
    test('the fidelity report is a read-only preview: a deleted file in its card\'s words, relative paths, closed without a question', { timeout: 300_000 }, async () => {
      // Back to the live conversation (the replay is in front after the test above).
      panel = await webviewFrame(page, '#tandem-root', 30_000);
      await panel.locator('#tabs-bar .tab', { hasText: 'Scripted agent' }).filter({ hasNotText: '(replay)' }).first().click();
      await panel.locator('#tabs-bar .tab.active', { hasText: 'Scripted agent' }).filter({ hasNotText: '(replay)' }).waitFor({ timeout: 15_000 });
      await send(panel, 'disk-delete src/legacy.ts');
      await turnEnded(3);
      const badge = panel.locator('.tool-card.kind-delete .origin-badge').first();
      await badge.waitFor({ timeout: 30_000 });
      const cardWords = (await badge.innerText()).trim();
      assert.equal(cardWords, 'deleted on disk by the agent', 'the card says how the file changed');

      await runCommand(page, 'Tandem: Show Fidelity Report');
      const preview = await webviewFrame(page, 'h1:has-text("Fidelity report")', 30_000);
      const tabs = page.locator('.tabs-container .tab');
      assert.deepEqual(await tabs.filter({ hasText: 'Untitled' }).allInnerTexts(), [], 'no untitled document');
      const reportTab = tabs.filter({ hasText: 'Fidelity report' });
      assert.equal(await reportTab.count(), 1, `the report's preview: ${JSON.stringify(await tabs.allInnerTexts())}`);
      assert.equal(await reportTab.evaluate((tab) => tab.classList.contains('dirty')), false, 'nothing to save');
      const row = preview.locator('tr', { hasText: 'src/legacy.ts' }).first();
      await row.waitFor({ timeout: 20_000 });
      const cells = (await row.locator('td').allInnerTexts()).map((cell) => cell.trim());
      assert.equal(cells[0], 'src/legacy.ts', 'the file is named relative to the workspace, as its card names it');
      assert.equal(cells[1], cardWords, 'the report says what the card says');
      assert.ok(!(await preview.locator('body').innerText()).includes(tmp), 'no absolute path of a workspace file');
      await screenshot(page, 'e2e-fidelity-report-deleted');

      await reportTab.hover();
      await reportTab.locator('.tab-actions .action-label').first().click();
      await reportTab.waitFor({ state: 'detached', timeout: 10_000 });
      await page.waitForTimeout(1_000);
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'closing the report asks nothing');
      assert.deepEqual(await page.locator('.tabs-container .tab', { hasText: /Untitled|Fidelity report/ }).allInnerTexts(), [], 'no editor of the report is left behind');
    });
  });
}
