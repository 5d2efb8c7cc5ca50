// The panel in the shared Gemini workbench across window reloads: pending changes and tabs come
// back; then an agent from the ACP registry, and a full scripted turn in light and dark.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { ScriptedModelServer } from '../../support/model-servers/script';
import { newConversationButton, send, startFromPalette } from '../../support/panelUser';
import { recordSocketFrames } from '../../support/socketFrames';
import { runCommand, screenshot, webviewFrame } from '../../support/workbench';
import { explainTimeout, selectAgent, sendAllowingItsEdit, waitForDisk, waitForTurnEnd, workspaceRecord } from './panelSteps';
import type { GeminiWorkbench, WorkbenchGetter } from './workbench';

export function registerPanelReloadTests(workbench: WorkbenchGetter): void {
  describe('Tandem panel in code-server, across reloads', () => {
    let w: GeminiWorkbench;
    let page: Page;
    let panel: Frame;
    let model: ScriptedModelServer;
    let workspace: string;
    beforeEach(() => {
      w = workbench();
      ({ page, panel, model, workspace } = w);
    });

    test('pending changes survive a window reload, and Undo all then restores the file', { timeout: 180_000 }, async () => {
      assert.ok(model);
      if ((await panel.locator('#agent-picker').evaluate((node) => (node as HTMLElement & { value: string }).value)) !== 'gemini') {
        await panel.locator('#agent-picker').click();
        await panel.locator('#agent-picker li.option', { hasText: 'Gemini CLI' }).click();
        await panel.locator('#tabs-bar .tab.active', { hasText: 'Gemini CLI' }).waitFor({ timeout: 30_000 });
        await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 90_000 });
      }
      const file = join(workspace, 'survives-reload.txt');
      writeFileSync(file, 'alpha\nbeta\n');
      model.enqueue({ toolUses: [{ name: 'write_file', input: { file_path: file, content: 'alpha\nBETA\ngamma\n' } }] }, { text: 'Done.' });
      const frames = await recordSocketFrames(page);
      await sendAllowingItsEdit(panel, 'Edit survives-reload.txt');
      await panel.locator('#changes-bar .changes-summary', { hasText: '1 file changed' }).waitFor({ timeout: 10_000 });
      // The ledger reaches the server's disk, the file's texts not crossing to the browser; then the whole window reloads.
      await waitForDisk(async () => workspaceRecord(w.tandem.server.userDataDir, 'tandem.review.ledger').includes('alpha\\nBETA\\ngamma\\n'));
      await frames.stop();
      assert.ok(frames.received.some(({ text }) => text.includes('survives-reload.txt')), 'the recording saw the turn');
      assert.deepEqual(frames.received.filter(({ text }) => /tandem\.(review\.(ledger|owners|feedback)|transcripts|checkpoints\.index)/.test(text)).map(({ text }) => text.replace(/[^\x20-\x7e]/g, '.').slice(0, 160)), []);
      // The review editor is open when the window reloads: the workbench restores it before its startup
      // finishes, and asks Tandem for the text before the change then (a file it could not get was dropped).
      await runCommand(page, 'Review Agent Changes');
      const reviewed = page.locator('.multiDiffEntry', { has: page.locator('.header', { hasText: 'survives-reload.txt' }) });
      const beforeTheEdit = reviewed.locator('.editor.original .view-lines', { hasText: /alpha\s*beta/ });
      await beforeTheEdit.waitFor({ timeout: 30_000 });
      // As a user reloads: the workbench saves its state (the open editors) on the way out.
      const reloaded = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 60_000 });
      await runCommand(page, 'Reload Window');
      await reloaded;
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      panel = w.panel = await webviewFrame(page, '#changes-bar', 60_000);
      await panel.locator('#changes-bar .changes-summary', { hasText: '1 file changed' }).waitFor({ timeout: 30_000 });
      await beforeTheEdit.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
        await screenshot(page, 'e2e-review-editor-after-reload-failed');
        throw error;
      });
      assert.match(await reviewed.locator('.editor.modified .view-lines').innerText(), /alpha\s*BETA\s*gamma/);
      await screenshot(page, 'e2e-review-after-reload');
      await panel.locator('#changes-bar').getByRole('button', { name: 'Undo all' }).click();
      await waitForDisk(async () => readFileSync(file, 'utf8') === 'alpha\nbeta\n');
      // The review lets go of the change too (the bar stays, offering "Redo").
      await explainTimeout(page, panel, panel.locator('#changes-bar .changes-summary').waitFor({ state: 'detached', timeout: 30_000 }), 'after Undo all the review still held a change');
      assert.equal(await panel.locator('#changes-bar').getByRole('button', { name: 'Redo', exact: true }).count(), 1, 'the bar stays, offering Redo');
      await runCommand(page, 'Close All Editors');

      // The undo is news for the conversation whose agent made the change, which the reload kept, and for no
      // other (the note going to its owner after a reload: undoNotesOwner.test.ts).
      await selectAgent(panel, 'Scripted agent', 'scripted');
      await send(panel, 'echo unrelated');
      const echoed = panel.locator('.agent-message', { hasText: 'You said:' }).last();
      await echoed.waitFor({ timeout: 30_000 });
      assert.equal(await echoed.innerText(), 'You said: unrelated', 'another agent is not told of the Gemini conversation\'s undone change');
    });
    test('conversations as tabs with two agents; a reload brings them back; the history lists a closed one', { timeout: 240_000 }, async () => {
      const tabs = panel.locator('#tabs-bar .tab');
      const before = await tabs.count();
      const geminiTabs = await panel.locator('#tabs-bar .tab', { hasText: 'Gemini CLI' }).count();
      assert.ok(geminiTabs >= 1, 'the Gemini conversation of the earlier tests is a tab');
      await newConversationButton(page).click();
      await panel.locator('#agent-picker').click();
      await panel.locator('#agent-picker li.option', { hasText: 'Demo agent (offline)' }).click();
      await panel.locator('#tabs-bar .tab.active', { hasText: 'Demo agent' }).waitFor({ timeout: 30_000 });
      await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
      const frames = await recordSocketFrames(page);
      await send(panel, 'Hello from the second tab');
      const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
      await allow.waitFor({ timeout: 30_000 });
      await allow.click();
      await panel.locator('.turn-ended[data-stop-reason="end_turn"]').first().waitFor({ state: 'attached', timeout: 60_000 });
      assert.equal(await tabs.count(), before + 1);
      const activeTab = panel.locator('#tabs-bar .tab.active');
      assert.match(await activeTab.innerText(), /Hello from the second tab/);
      // In a narrow side bar the agent's name is in the tab's tooltip only.
      assert.match(await activeTab.getAttribute('title') ?? '', /Hello from the second tab — Demo agent/);
      await screenshot(page, 'e2e-tabs');
      // The conversations are saved on the server's disk, not through the browser: workspaceState
      // would carry every conversation over the socket with each of Tandem's saves.
      await waitForDisk(async () => workspaceRecord(w.tandem.server.userDataDir, 'tandem.transcripts').includes('Hello from the second tab'));
      await frames.stop();
      assert.ok(frames.received.some(({ text }) => text.includes('Hello from the second tab')), 'the recording saw the turn');
      assert.deepEqual(frames.received.filter(({ text }) => text.includes('tandem.transcripts')).map(({ text }) => text.replace(/[^\x20-\x7e]/g, '.').slice(0, 160)), []);

      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      panel = w.panel = await webviewFrame(page, '#tabs-bar .tab.active', 60_000);
      await panel.locator('.agent-message', { hasText: "Tandem's demo agent" }).first().waitFor({ timeout: 30_000 });
      await panel.locator('.user-message', { hasText: 'Hello from the second tab' }).waitFor({ timeout: 10_000 });
      assert.equal(await panel.locator('#tabs-bar .tab', { hasText: 'Gemini CLI' }).count(), geminiTabs, 'the Gemini conversation is back too');

      const reloadedTabs = panel.locator('#tabs-bar .tab');
      const restored = await reloadedTabs.count();
      await panel.locator('#tabs-bar .tab.active .tab-close').click();
      await waitForDisk(async () => (await reloadedTabs.count()) === restored - 1);
      await panel.locator('#history-button').click();
      const item = panel.locator('#history-panel .history-item', { hasText: 'Hello from the second tab' });
      await item.waitFor({ timeout: 30_000 });
      assert.match(await item.innerText(), /Demo agent \(offline\) · kept by Tandem/);
      await screenshot(page, 'e2e-session-list');
      await item.locator('.history-open').click();
      await panel.locator('.user-message', { hasText: 'Hello from the second tab' }).waitFor({ timeout: 30_000 });
      assert.equal(await reloadedTabs.count(), restored);
    });

    test('an agent from the ACP registry is added to tandem.agents and offered in the picker', { timeout: 120_000 }, async () => {
      await startFromPalette(page, 'Add Agent from Registry…');
      const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Fixture npx agent' });
      await row.waitFor({ timeout: 30_000 });
      await row.click();
      // Nothing is added before the user saw exactly what will run.
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 30_000 });
      const shown = await dialog.innerText();
      assert.match(shown, /@fixture\/acp-agent@2\.3\.1/);
      assert.match(shown, /FIXTURE_MODE/);
      await dialog.getByRole('button', { name: 'Add Agent' }).click();
      await panel.locator('#agent-picker vscode-option[value="fixture-npx-agent"]').waitFor({ state: 'attached', timeout: 30_000 });
      const settings = JSON.parse(readFileSync(join(w.tandem.server.userDataDir, 'User', 'settings.json'), 'utf8')) as { 'tandem.agents': Record<string, { command: string; args: string[] }> };
      assert.deepEqual(settings['tandem.agents']['fixture-npx-agent']?.args, ['--yes', '@fixture/acp-agent@2.3.1', '--acp']);
      assert.equal(settings['tandem.agents']['fixture-npx-agent']?.command, 'npx');
    });

    test('a full turn renders (plan, thought, read, edit awaiting permission, command); keyboard-only approval; light and dark', { timeout: 180_000 }, async () => {
      await selectAgent(panel, 'Scripted conversation', 'scripted-conversation');
      await panel.locator('#config-pickers select[data-option-id="mode"]').waitFor({ timeout: 30_000 });
      assert.deepEqual(await panel.locator('#config-pickers select').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-option-id'))), ['mode', 'model', 'effort']);
      await panel.locator('#follow-agent').click();
      await panel.locator('#follow-agent[aria-pressed="true"]').waitFor({ timeout: 10_000 });
      const turns = await panel.locator('.turn-ended').count();
      await send(panel, 'conversation');
      await explainTimeout(page, panel, panel.locator('.user-message', { hasText: 'conversation' }).last().waitFor({ timeout: 30_000 }), 'the prompt never reached the thread');
      const edit = panel.locator('.tool-card[data-tool-call-id="conv-edit"]');
      await explainTimeout(page, panel, edit.locator('.permission-options').waitFor({ timeout: 60_000 }), 'the edit\'s permission request never showed');
      assert.match(await edit.locator('.permission-prompt').innerText(), /change .*greeting\.ts/);
      assert.match(await edit.locator('.tool-diff').innerText(), /hello, world/);
      assert.match(await panel.locator('#plan-strip').innerText(), /2\/4\s*Edit the greeting/);
      assert.match(await panel.locator('details.tool-group summary').last().innerText(), /Read 1 file, 1 search/);
      assert.equal(await panel.locator('details.thought').count() > 0, true);
      await screenshot(page, 'e2e-conversation-permission');

      // Keyboard only: from the message box, Shift+Tab back to the card's "Allow" and press Enter.
      await panel.locator('#composer-input textarea').focus();
      let reached = false;
      for (let i = 0; i < 60 && !reached; i++) {
        await page.keyboard.press('Shift+Tab');
        reached = await panel.evaluate(() => (document.activeElement?.getAttribute('title') ?? '').endsWith('(allow once)') && Boolean(document.activeElement?.closest('[data-tool-call-id="conv-edit"]')));
      }
      assert.ok(reached, 'the Allow button is reachable with the keyboard');
      await page.keyboard.press('Enter');
      assert.equal(await waitForTurnEnd(panel, turns + 1, 30_000), 'end_turn');
      assert.match(await panel.locator('.agent-message').last().innerText(), /Permission outcome: allow-once/);
      const run = panel.locator('.tool-card[data-tool-call-id="conv-run"]');
      assert.equal(await run.locator('.tool-title').innerText(), 'npm test -- --grep greeting', 'commands are shown verbatim');
      await run.locator('.xterm-rows', { hasText: '1 passing' }).waitFor({ timeout: 10_000 });
      assert.match(await panel.locator('#plan-strip').innerText(), /4\/4/);
      const meter = panel.locator('#usage-meter');
      await meter.filter({ hasText: '27%' }).waitFor({ timeout: 10_000 });
      assert.match(await meter.innerText(), /\$0\.042/);
      await page.locator('.statusbar-item', { hasText: '27%' }).first().waitFor({ timeout: 10_000 });
      await page.locator('.tabs-container .tab', { hasText: 'greeting.ts' }).first().waitFor({ timeout: 10_000 });
      await panel.locator('.agent-message .code-frame .copy-code').last().waitFor({ state: 'attached' });
      const themeOf = () => page.locator('.monaco-workbench').first().evaluate((node) => (node.classList.contains('vs-dark') ? 'dark' : node.classList.contains('hc-black') || node.classList.contains('hc-light') ? 'high-contrast' : 'light'));
      const first = await themeOf();
      await screenshot(page, `e2e-conversation-${first}`);
      await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
      const other = first === 'dark' ? 'light' : 'dark';
      await page.locator(other === 'dark' ? '.monaco-workbench.vs-dark' : '.monaco-workbench.vs').waitFor({ timeout: 15_000 });
      // The panel has the theme's colours once the webview host marks its body with the theme's kind.
      await panel.locator(`body[data-vscode-theme-kind="vscode-${other}"]`).waitFor({ state: 'attached', timeout: 10_000 });
      await screenshot(page, `e2e-conversation-${other}`);
      await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
      assert.equal(await themeOf(), first);
    });
  });
}
