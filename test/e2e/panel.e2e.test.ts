// Tandem in a real VS Code: code-server runs the packaged .vsix, Chromium drives the workbench,
// and the panel talks to the shipped demo agent and to the real Gemini CLI (against a scripted
// model server on 127.0.0.1). One code-server start serves every test in this file.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT } from '../support/code-server';
import { hostileContent } from '../support/hostileContent';
import { GEMINI_CLI, openAgentWorkbench, type AgentWorkbench } from '../support/agentWorkbench';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { terminalPrompt } from '../support/scenarios/terminals';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { recordSocketFrames } from '../support/socketFrames';
import { SAMPLE_WORKSPACE, tempWorkspace } from '../support/tandemWorkbench';
import { pickAgent, pickedAgent, send, startFromPalette, turnEnd } from '../support/panelUser';
import { openFile, runCommand, screenshot, webviewFrame } from '../support/workbench';

let tmp: string;
let workspace: string;
let tandem: AgentWorkbench | undefined;
let page: Page;
let panel: Frame;
let model: ScriptedModelServer | undefined;
let registry: { url: string; close(): Promise<void> } | undefined;

/** The ACP registry fixture over HTTP on 127.0.0.1, as the real registry is served to users. */
function serveRegistryFixture(): Promise<{ url: string; close(): Promise<void> }> {
  const body = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'registry.json'));
  const http = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => {
    const address = http.address() as AddressInfo;
    resolve({ url: `http://127.0.0.1:${address.port}/registry.json`, close: () => new Promise((done) => http.close(() => done())) });
  }));
}

/** A wait that failed says what the panel (thread, changes bar) and the workbench's notifications showed then, so a failure far from here can be understood. */
async function explainTimeout(wait: Promise<unknown>, what: string): Promise<void> {
  try {
    await wait;
  } catch (error) {
    const status = await panel.locator('.connection-status').first().getAttribute('class').catch(() => null);
    const thread = await panel.locator('#thread').innerText().catch(() => '(thread not readable)');
    const changes = await panel.locator('#changes-bar').innerText().catch(() => '(not readable)');
    const notifications = await page.locator('.notifications-toasts').innerText().catch(() => '');
    await screenshot(page, 'e2e-failure').catch(() => undefined);
    throw new Error(`${what}: ${(error as Error).message}\nstatus: ${status}\nchanges bar: ${changes}\nnotifications: ${notifications}\nthread (last 1500 characters):\n${thread.slice(-1500)}`, { cause: error });
  }
}

/** Sends `text`, allows the edit its turn asks permission for, and expects the turn to end normally. */
async function sendAllowingItsEdit(text: string): Promise<void> {
  const turns = await panel.locator('.turn-ended').count();
  await send(panel, text);
  const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
  await allow.waitFor({ timeout: 60_000 });
  await allow.click();
  assert.equal(await waitForTurnEnd(panel, turns + 1, 90_000), 'end_turn');
}

/** The newest turn-ended marker's stop reason, waiting until there are `count` of them. */
async function waitForTurnEnd(frame: Frame, count: number, timeoutMs = 60_000): Promise<string | null> {
  const reason = await turnEnd(frame, count, timeoutMs);
  if (reason === 'error') throw new Error(`the turn failed: ${await frame.locator('.turn-ended').nth(count - 1).textContent()}`);
  return reason;
}

/** Picks an agent in the panel's picker and waits for the connection phase it should reach. */
async function selectAgent(label: string, id: string, phase = 'ready'): Promise<void> {
  // A used conversation keeps its agent: the choice opens a new tab, which must be showing first.
  await pickAgent(panel, label, phase);
  assert.equal(await pickedAgent(panel), id);
}

/** Polls a condition that depends on the editor and the disk, bounded. */
async function waitForDisk(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the editor and disk to settle');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The text of one of Tandem's workspace records, in the extension's workspace storage folder on the server's disk ('' until written). */
function workspaceRecord(key: string): string {
  assert.ok(tandem);
  const storage = join(tandem.server.userDataDir, 'User', 'workspaceStorage');
  for (const folder of existsSync(storage) ? readdirSync(storage) : []) {
    const file = join(storage, folder, 'tandem-acp.tandem', 'state', `${key}.json`);
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return '';
}

before(async () => {
  ({ tmp, workspace } = tempWorkspace('e2e', SAMPLE_WORKSPACE));
  registry = await serveRegistryFixture();
  const scripted = scriptedAgentDefinition();
  tandem = await openAgentWorkbench({ tmp, workspace }, GEMINI_CLI, {
    settings: {
      'tandem.defaultAgent': 'demo',
      'tandem.registryUrl': registry.url,
      // The DOM renderer, so a test can read what the terminal panel shows.
      'terminal.integrated.gpuAcceleration': 'off',
    },
    agents: {
      scripted: { label: 'Scripted agent', command: scripted.command, args: scripted.args },
      'scripted-conversation': { label: 'Scripted conversation', command: scripted.command, args: scripted.args, env: { SCRIPTED_AGENT_OPTIONS: 'config' } },
      'scripted-signin': {
        label: 'Scripted sign-in', command: scripted.command, args: scripted.args,
        env: { SCRIPTED_AGENT_AUTH: 'session', SCRIPTED_AGENT_AUTH_MARKER: join(tmp, 'signed-in') },
      },
    },
  });
  ({ page, panel, model } = tandem);
});

after(async () => {
  await registry?.close();
  await tandem?.close();
});

describe('Tandem panel in code-server', () => {
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
    await sendAllowingItsEdit('Change four lines of review-me.txt');
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
    await panel.locator('#changes-bar .changes-summary', { hasText: 'No pending changes' }).waitFor({ timeout: 10_000 });
    assert.equal(await panel.locator('#changes-bar').getByRole('button', { name: 'Undo last undo' }).count(), 1);
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
    await selectAgent('Scripted agent', 'scripted');
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
    await selectAgent('Scripted sign-in', 'scripted-signin', 'signInRequired');
    const banner = panel.locator('#connection-banner.phase-signInRequired');
    assert.match(await banner.innerText(), /needs you to sign in/);
    await screenshot(page, 'e2e-sign-in-required');
    await banner.getByRole('button', { name: 'Sign in to Scripted' }).click();
    await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
    assert.ok(existsSync(join(tmp, 'signed-in')), 'the login ran in a terminal');
    await send(panel, 'echo signed in');
    await panel.locator('.agent-message', { hasText: 'You said: signed in' }).waitFor({ timeout: 30_000 });
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
    await sendAllowingItsEdit('Edit survives-reload.txt');
    await panel.locator('#changes-bar .changes-summary', { hasText: '1 file changed' }).waitFor({ timeout: 10_000 });
    // The ledger reaches the server's disk, the file's texts not crossing to the browser; then the whole window reloads.
    await waitForDisk(async () => workspaceRecord('tandem.review.ledger').includes('alpha\\nBETA\\ngamma\\n'));
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
    panel = await webviewFrame(page, '#changes-bar', 60_000);
    await panel.locator('#changes-bar .changes-summary', { hasText: '1 file changed' }).waitFor({ timeout: 30_000 });
    await beforeTheEdit.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'e2e-review-editor-after-reload-failed');
      throw error;
    });
    assert.match(await reviewed.locator('.editor.modified .view-lines').innerText(), /alpha\s*BETA\s*gamma/);
    await screenshot(page, 'e2e-review-after-reload');
    await panel.locator('#changes-bar').getByRole('button', { name: 'Undo all' }).click();
    await waitForDisk(async () => readFileSync(file, 'utf8') === 'alpha\nbeta\n');
    // The review lets go of the change too (the bar stays, offering "Undo last undo").
    await explainTimeout(panel.locator('#changes-bar .changes-summary', { hasText: 'No pending changes' }).waitFor({ timeout: 30_000 }), 'after Undo all the review still held a change');
    await runCommand(page, 'Close All Editors');

    // The undo is news for the conversation whose agent made the change, which the reload kept, and for no
    // other (the note going to its owner after a reload: undoNotesOwner.test.ts).
    await selectAgent('Scripted agent', 'scripted');
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
    await panel.locator('#new-tab').click();
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
    await waitForDisk(async () => workspaceRecord('tandem.transcripts').includes('Hello from the second tab'));
    await frames.stop();
    assert.ok(frames.received.some(({ text }) => text.includes('Hello from the second tab')), 'the recording saw the turn');
    assert.deepEqual(frames.received.filter(({ text }) => text.includes('tandem.transcripts')).map(({ text }) => text.replace(/[^\x20-\x7e]/g, '.').slice(0, 160)), []);

    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    panel = await webviewFrame(page, '#tabs-bar .tab.active', 60_000);
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
    const settings = JSON.parse(readFileSync(join(tandem?.server.userDataDir ?? '', 'User', 'settings.json'), 'utf8')) as { 'tandem.agents': Record<string, { command: string; args: string[] }> };
    assert.deepEqual(settings['tandem.agents']['fixture-npx-agent']?.args, ['--yes', '@fixture/acp-agent@2.3.1', '--acp']);
    assert.equal(settings['tandem.agents']['fixture-npx-agent']?.command, 'npx');
  });

  test('a full turn renders (plan, thought, read, edit awaiting permission, command); keyboard-only approval; light and dark', { timeout: 180_000 }, async () => {
    await selectAgent('Scripted conversation', 'scripted-conversation');
    await panel.locator('#config-pickers select[data-option-id="mode"]').waitFor({ timeout: 30_000 });
    assert.deepEqual(await panel.locator('#config-pickers select').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-option-id'))), ['mode', 'model', 'effort']);
    await panel.locator('#follow-agent').click();
    await panel.locator('#follow-agent[aria-pressed="true"]').waitFor({ timeout: 10_000 });
    const turns = await panel.locator('.turn-ended').count();
    await send(panel, 'conversation');
    await explainTimeout(panel.locator('.user-message', { hasText: 'conversation' }).last().waitFor({ timeout: 30_000 }), 'the prompt never reached the thread');
    const edit = panel.locator('.tool-card[data-tool-call-id="conv-edit"]');
    await explainTimeout(edit.locator('.permission-options').waitFor({ timeout: 60_000 }), 'the edit\'s permission request never showed');
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
    await page.waitForTimeout(500);
    await screenshot(page, `e2e-conversation-${other}`);
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    assert.equal(await themeOf(), first);
  });

});
