// Tandem in a real VS Code: code-server runs the packaged .vsix, Chromium drives the workbench,
// and the panel talks to the shipped demo agent and to the real Gemini CLI (against a scripted
// model server on 127.0.0.1). One code-server start serves every test in this file.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../support/code-server';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { geminiAgentSpec, type AgentSpec } from '../support/real-agents';
import { launchBrowser, openWorkbench, runCommand, screenshot, webviewFrame, type WorkbenchBrowser } from '../support/workbench';

const VSIX = join(REPO_ROOT, 'dist', 'tandem.vsix');

let tmp: string;
let workspace: string;
let server: CodeServer | undefined;
let browser: WorkbenchBrowser | undefined;
let page: Page;
let panel: Frame;
let model: ScriptedModelServer | undefined;
let gemini: AgentSpec | undefined;

async function send(frame: Frame, text: string): Promise<void> {
  const input = frame.locator('#composer-input textarea');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/** The newest turn-ended marker's stop reason, waiting until there are `count` of them. */
async function waitForTurnEnd(frame: Frame, count: number, timeoutMs = 60_000): Promise<string | null> {
  const markers = frame.locator('.turn-ended');
  await markers.nth(count - 1).waitFor({ state: 'attached', timeout: timeoutMs });
  const reason = await markers.nth(count - 1).getAttribute('data-stop-reason');
  if (reason === 'error') throw new Error(`the turn failed: ${await markers.nth(count - 1).textContent()}`);
  return reason;
}

before(async () => {
  assert.ok(existsSync(VSIX), `${VSIX} is missing: run npm run package (npm test does)`);
  tmp = mkdtempSync(join(tmpdir(), 'tandem-e2e-'));
  workspace = join(tmp, 'workspace');
  cpSync(join(REPO_ROOT, 'scripts', 'sample-workspace'), workspace, { recursive: true });
  model = await startGeminiModelServer();
  gemini = geminiAgentSpec(model.url, { cwd: workspace });
  const { GEMINI_API_KEY, ...geminiEnv } = gemini.env;
  server = await startCodeServer({
    workspace,
    vsix: VSIX,
    // The key reaches the agent through the environment, as for real users; never via settings.
    env: { GEMINI_API_KEY: GEMINI_API_KEY ?? 'test-key' },
    settings: {
      'tandem.revealOnStartup': true,
      'tandem.defaultAgent': 'demo',
      'tandem.agents': { gemini: { command: gemini.command, args: gemini.args, env: geminiEnv } },
    },
  });
  browser = await launchBrowser({ viewport: { width: 1500, height: 950 } });
  page = await openWorkbench(browser, server.url);
  panel = await webviewFrame(page, '#tandem-root', 60_000);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await model?.close();
  gemini?.dispose();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('Tandem panel in code-server', () => {
  test('the demo agent streams an answer after a permission, and Stop ends a turn as cancelled', { timeout: 180_000 }, async () => {
    await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
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
    panel = await webviewFrame(page, '.entry', 30_000);
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

    model.enqueue({ text: 'slow '.repeat(1000), chunkSize: 10, delayMs: 25 });
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
    const dangerous = await message.evaluate((root) => {
      const found: string[] = [];
      for (const node of root.querySelectorAll('*')) {
        if (['SCRIPT', 'IFRAME', 'SVG', 'STYLE', 'OBJECT', 'EMBED'].includes(node.tagName.toUpperCase())) found.push(node.tagName);
        for (const attribute of node.attributes) {
          if (attribute.name.startsWith('on')) found.push(`${node.tagName}[${attribute.name}]`);
          if (/^\s*(javascript|data):/i.test(attribute.value) && ['href', 'src'].includes(attribute.name)) found.push(`${node.tagName}[${attribute.name}=${attribute.value}]`);
        }
        if (node.tagName === 'IMG' && /^https?:/i.test(node.getAttribute('src') ?? '')) found.push('remote img');
      }
      return found;
    });
    assert.deepEqual(dangerous, []);
    assert.match(await message.innerText(), /<script>window.__pwned = 1<\/script>/, 'raw HTML is shown as text');
    assert.ok(await panel.locator('body').isVisible());
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
});
