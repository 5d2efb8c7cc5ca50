// The panel in the shared Gemini workbench: the demo agent, the real Gemini CLI, hostile markdown,
// hunk review from the panel and the editor, the traffic view, terminal cards, and a sign-in.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { hostileContent } from '../../support/hostileContent';
import type { ScriptedModelServer } from '../../support/model-servers/script';
import { send } from '../../support/panelUser';
import { terminalPrompt } from '../../support/scenarios/terminals';
import { openFile, runCommand, screenshot, webviewFrame } from '../../support/workbench';
import { selectAgent, sendAllowingItsEdit, waitForDisk, waitForTurnEnd } from './panelSteps';
import type { GeminiWorkbench, WorkbenchGetter } from './workbench';

export function registerPanelTurnTests(workbench: WorkbenchGetter): void {
  describe('Tandem panel in code-server', () => {
    let w: GeminiWorkbench;
    let page: Page;
    let panel: Frame;
    let model: ScriptedModelServer;
    let workspace: string;
    let tmp: string;
    beforeEach(() => {
      w = workbench();
      ({ page, panel, model, workspace, tmp } = w);
    });

    test('the demo agent streams an answer after a permission, and Stop ends a turn as cancelled', { timeout: 180_000 }, async () => {
      // A workspace Tandem was never used in starts no agent until the user asks for one.
      await panel.locator('.connection-status.phase-idle').waitFor({ timeout: 60_000 });
      assert.equal(await panel.locator('#agent-picker').evaluate((node) => (node as HTMLElement & { value: string }).value), 'demo');

      await send(panel, 'What is in this workspace?');
      await panel.locator('.user-message', { hasText: 'What is in this workspace?' }).waitFor({ timeout: 10_000 });
      const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
      await allow.waitFor({ timeout: 30_000 });
      await screenshot(page, 'e2e-demo-permission');
      await allow.click();
      assert.equal(await waitForTurnEnd(panel, 1), 'end_turn');
      const answer = await panel.locator('.agent-message').last().innerText();
      assert.match(answer, /Tandem's demo agent/);
      assert.match(answer, /README\.md/, 'the listing allowed by the user is in the answer');
      assert.equal(await panel.locator('.tool-card .tool-status.status-completed').count(), 1);
      assert.ok(await panel.locator('.agent-message pre.code-block code.hljs').count() >= 1, 'the code block is highlighted');
      const shot = await screenshot(page, 'e2e-demo-answer');
      assert.ok(statSync(shot).size > 20_000);

      await send(panel, 'Tell me more');
      await allow.waitFor({ timeout: 30_000 });
      await allow.click();
      await panel.locator('.agent-message').nth(1).waitFor({ timeout: 30_000 });
      await panel.locator('#send-button', { hasText: 'Stop' }).click();
      assert.equal(await waitForTurnEnd(panel, 2), 'cancelled');
      await panel.locator('.turn-ended[data-stop-reason="cancelled"]', { hasText: 'you cancelled this turn' }).waitFor({ timeout: 5_000 });
      assert.equal(await panel.locator('#send-button').innerText(), 'Send');
      await screenshot(page, 'e2e-demo-cancelled');

      // Hide the panel (its webview document is destroyed) and show it again: nothing is lost.
      const entriesBefore = await panel.locator('.entry').count();
      await page.keyboard.press('Control+Shift+E');
      await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 10_000 });
      await page.locator('.activitybar .action-item a[aria-label^="Tandem"], .activitybar .action-item[aria-label^="Tandem"]').first().click();
      panel = w.panel = await webviewFrame(page, '.entry', 30_000);
      await panel.locator('.agent-message', { hasText: "Tandem's demo agent" }).first().waitFor({ timeout: 10_000 });
      assert.equal(await panel.locator('.entry').count(), entriesBefore);
      assert.equal(await panel.locator('.turn-ended[data-stop-reason="cancelled"]').count(), 1);
    });

    test('the real Gemini CLI answers in the panel and Stop cancels its turn', { timeout: 240_000 }, async () => {
      assert.ok(model);
      await panel.locator('#agent-picker').click();
      await panel.locator('#agent-picker li.option', { hasText: 'Gemini CLI' }).click();
      await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 90_000 });
      assert.equal(await panel.locator('#agent-picker').evaluate((node) => (node as HTMLElement & { value: string }).value), 'gemini');

      const reply = 'Gemini here, answering **through Tandem** from a scripted model.';
      model.enqueue({ text: reply, chunkSize: 8 });
      await send(panel, 'Say hello');
      assert.equal(await waitForTurnEnd(panel, 1, 90_000), 'end_turn');
      assert.equal(await panel.locator('.agent-message').last().innerText(), 'Gemini here, answering through Tandem from a scripted model.');
      assert.equal(await panel.locator('.agent-message strong').last().innerText(), 'through Tandem');
      await screenshot(page, 'e2e-gemini-answer');

      // No repeated chunks: Gemini CLI's loop detection would end a repetitive answer by itself.
      model.enqueue({ text: Array.from({ length: 1000 }, (_, i) => `word${i} `).join(''), chunkSize: 10, delayMs: 25 });
      await send(panel, 'Write something long');
      await panel.locator('.agent-message').nth(1).waitFor({ timeout: 60_000 });
      await panel.locator('#send-button', { hasText: 'Stop' }).click();
      assert.equal(await waitForTurnEnd(panel, 2, 60_000), 'cancelled');
      const partial = await panel.locator('.agent-message').nth(1).innerText();
      assert.ok(partial.length < 5000, `the answer stopped early (${partial.length} characters)`);
      await screenshot(page, 'e2e-gemini-cancelled');
    });

    test('hostile markdown from a real agent renders inert', { timeout: 120_000 }, async () => {
      assert.ok(model);
      const hostile = [
        'Look: <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2">',
        '[click me](javascript:window.__pwned=3) [data](data:text/html,<script>window.__pwned=4</script>)',
        '<iframe src="https://example.com"></iframe> <svg onload="window.__pwned=5"></svg>',
        '![remote](https://example.com/track.png) <a href="#" onclick="window.__pwned=6">x</a> <style>body{display:none}</style>',
        'END-OF-HOSTILE',
      ].join('\n\n');
      model.enqueue({ text: hostile, chunkSize: 7 });
      await send(panel, 'Show me something nasty');
      assert.equal(await waitForTurnEnd(panel, 3, 90_000), 'end_turn');
      const message = panel.locator('.agent-message').last();
      await message.filter({ hasText: 'END-OF-HOSTILE' }).waitFor({ timeout: 10_000 });
      assert.equal(await panel.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null), null);
      const dangerous = await message.evaluate(hostileContent);
      assert.deepEqual(dangerous, []);
      assert.match(await message.innerText(), /<script>window.__pwned = 1<\/script>/, 'raw HTML is shown as text');
      assert.ok(await panel.locator('body').isVisible());
    });

    test('hunk review: keep and undo from the panel and from the editor; the disk has exactly the kept hunks', { timeout: 180_000 }, async () => {
      assert.ok(model);
      const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
      const file = join(workspace, 'review-me.txt');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const changed = lines.map((line, i) => ([1, 6, 11, 16].includes(i) ? `${line} CHANGED` : line));
      model.enqueue({ toolUses: [{ name: 'write_file', input: { file_path: file, content: `${changed.join('\n')}\n` } }] }, { text: 'Changed four lines.' });
      await sendAllowingItsEdit(panel, 'Change four lines of review-me.txt');
      await panel.locator('#changes-bar:not([hidden])').waitFor({ timeout: 10_000 });
      assert.match(await panel.locator('#changes-bar .changes-summary').innerText(), /1 file changed\s+\+4\s+−4/);
      const card = panel.locator('.tool-card', { has: panel.locator('.tool-diff.pending') }).last();
      assert.equal(await card.locator('.hunk').count(), 4);
      assert.match(await card.locator('.origin-badge').first().innerText(), /through the editor/);
      await screenshot(page, 'e2e-review-panel');
      await panel.locator('#changes-bar').getByRole('button', { name: 'Review', exact: true }).click();
      await page.locator('.tab', { hasText: 'Tandem: pending agent changes' }).first().waitFor({ timeout: 20_000 });
      await screenshot(page, 'e2e-review-multidiff');

      // From the panel: keep the first hunk, undo the second.
      await card.locator('.hunk').nth(0).getByRole('button', { name: 'Keep', exact: true }).click();
      await panel.locator('.tool-card .hunk').filter({ hasText: 'line 2 CHANGED' }).waitFor({ state: 'detached', timeout: 10_000 });
      await panel.locator('.tool-card .hunk', { hasText: 'line 7 CHANGED' }).getByRole('button', { name: 'Undo', exact: true }).click();
      await panel.locator('.tool-card .hunk').filter({ hasText: 'line 7 CHANGED' }).waitFor({ state: 'detached', timeout: 10_000 });

      // From the editor: CodeLens Keep on the third change, Undo on the fourth.
      await openFile(page, 'review-me.txt');
      const lenses = page.locator('.editor-group-container.active .codelens-decoration');
      await lenses.filter({ hasText: 'Keep' }).first().waitFor({ timeout: 20_000 });
      await screenshot(page, 'e2e-review-editor');
      await lenses.filter({ hasText: 'Keep' }).first().locator('a', { hasText: 'Keep' }).click();
      await waitForDisk(() => lenses.filter({ hasText: 'Keep' }).count().then((count) => count === 1));
      await lenses.filter({ hasText: 'Undo' }).first().locator('a', { hasText: 'Undo' }).click();
      const expected = lines.map((line, i) => ([1, 11].includes(i) ? `${line} CHANGED` : line)).join('\n') + '\n';
      await waitForDisk(async () => readFileSync(file, 'utf8') === expected);
      assert.equal(readFileSync(file, 'utf8'), expected);
      // Nothing is pending; what was undone can still be brought back.
      await panel.locator('#changes-bar .changes-summary').waitFor({ state: 'detached', timeout: 10_000 });
      assert.equal(await panel.locator('#changes-bar').getByRole('button', { name: 'Redo', exact: true }).count(), 1);
    });

    test('Tandem: Show Traffic shows the redacted JSON-RPC frames', { timeout: 60_000 }, async () => {
      await runCommand(page, 'Tandem: Show Traffic');
      const output = page.locator('.part.panel .monaco-editor .view-lines').first();
      await output.filter({ hasText: /jsonrpc/ }).waitFor({ timeout: 20_000 });
      // Monaco renders spaces as no-break spaces.
      const text = (await output.innerText()).replace(/\u00a0/g, ' ');
      assert.match(text, /← agent \{"jsonrpc":"2\.0"/);
      assert.ok(!text.includes('test-key'), 'the API key never shows');
      await screenshot(page, 'e2e-traffic');
    });

    test('a terminal card shows coloured live output and a working Stop; the terminal panel lists its mirror', { timeout: 180_000 }, async () => {
      await selectAgent(panel, 'Scripted agent', 'scripted');
      // Review notes from earlier tests go out with the next prompt and would hide the scenario word: send them now.
      const ended = await panel.locator('.turn-ended').count();
      await send(panel, 'echo ready');
      await waitForTurnEnd(panel, ended + 1, 30_000);
      const command = "echo tandem-e2e; printf '\\033[31mred\\033[0m and \\033[32mgreen\\033[0m\\n'; for i in 1 2 3; do echo line $i; done; sleep 1000";
      const turns = await panel.locator('.turn-ended').count();
      await send(panel, terminalPrompt({ create: { command }, toolCall: true, steps: ['waitOutput:line 3', 'wait'] }));
      const pane = panel.locator('.tool-card .terminal-pane').last();
      await pane.locator('.xterm-rows', { hasText: 'line 3' }).waitFor({ timeout: 30_000 });
      assert.match(await pane.locator('.terminal-command').innerText(), /^echo tandem-e2e;/);
      assert.match(await pane.locator('.terminal-status').innerText(), /Running/);
      assert.ok((await pane.locator('.terminal-cwd').innerText()).includes(workspace), 'the cwd is shown');
      // ANSI colours are rendered: xterm marks them with classes, and the theme's colours apply under the CSP.
      const red = pane.locator('.xterm-rows span.xterm-fg-1', { hasText: 'red' });
      const green = pane.locator('.xterm-rows span.xterm-fg-2', { hasText: 'green' });
      assert.equal(await red.count(), 1);
      assert.equal(await green.count(), 1);
      const colours = await Promise.all([red, green, pane.locator('.xterm-rows span', { hasText: 'line 3' }).first()].map((node) => node.evaluate((element) => getComputedStyle(element).color)));
      assert.equal(new Set(colours).size, 3, `red, green and plain text differ: ${colours.join(' / ')}`);
      await screenshot(page, 'e2e-terminal-card');

      await pane.getByRole('button', { name: 'Open in terminal panel' }).click();
      const terminalPanel = page.locator('.part.panel');
      await terminalPanel.getByText(/echo tandem-e2e/).first().waitFor({ timeout: 20_000 });
      const mirrored = terminalPanel.locator('.xterm-rows', { hasText: 'line 3' }).first();
      await mirrored.waitFor({ timeout: 20_000 });
      assert.match((await mirrored.innerText()).replace(/\u00a0/g, ' '), /\$ echo tandem-e2e;[\s\S]*red and green\s+line 1\s+line 2\s+line 3/);
      await screenshot(page, 'e2e-terminal-mirror');

      await pane.getByRole('button', { name: 'Stop' }).click();
      assert.equal(await waitForTurnEnd(panel, turns + 1, 30_000), 'end_turn');
      await pane.locator('.terminal-status', { hasText: 'SIGTERM' }).waitFor({ timeout: 10_000 });
      assert.equal(await pane.getByRole('button', { name: 'Stop' }).count(), 0, 'no Stop once it ended');
      assert.match(await panel.locator('.agent-message').last().innerText(), /"signal":"SIGTERM"/);
      await screenshot(page, 'e2e-terminal-stopped');

      // Output that an agent reports as text, without any terminal, is shown as output too.
      await send(panel, 'command-output');
      assert.equal(await waitForTurnEnd(panel, turns + 2, 30_000), 'end_turn');
      const output = panel.locator('.tool-card[data-tool-call-id="build-1"] .terminal-pane .xterm-rows');
      await output.filter({ hasText: 'build ok' }).waitFor({ timeout: 10_000 });
      assert.doesNotMatch(await output.innerText(), /```/, 'the fence is not shown');
      assert.equal(await output.locator('span.xterm-fg-3', { hasText: 'warning' }).count(), 1, 'its colours are rendered');
      await screenshot(page, 'e2e-command-output');
    });

    test('an agent that needs a sign-in gets it from a terminal, then Tandem reconnects', { timeout: 180_000 }, async () => {
      await selectAgent(panel, 'Scripted sign-in', 'scripted-signin', 'signInRequired');
      const banner = panel.locator('#connection-banner.phase-signInRequired');
      assert.match(await banner.innerText(), /needs you to sign in/);
      await screenshot(page, 'e2e-sign-in-required');
      await banner.getByRole('button', { name: 'Sign in to Scripted' }).click();
      await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
      assert.ok(existsSync(join(tmp, 'signed-in')), 'the login ran in a terminal');
      await send(panel, 'echo signed in');
      await panel.locator('.agent-message', { hasText: 'You said: signed in' }).waitFor({ timeout: 30_000 });
    });
  });
}
