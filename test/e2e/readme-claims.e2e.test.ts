// What the README promises about the panel, checked in a real VS Code: code-server runs the
// packaged .vsix, Chromium acts as the user (clicks, keys, the palette), and the assertions read
// what the panel shows, what the agent received and which processes run. One code-server start
// serves every test in this file; the agents are the shipped demo agent and the scripted agent.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { codeServerTools } from '../support/code-server';
import { composerText, dismissOverlays, openNewTab, pickAgent, pickedAgent, processesWithArgument, readOutputChannel, saveUserSettings, send, turnEnd, waitForPickedAgent } from '../support/panelUser';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { openTandemWorkbench, SAMPLE_WORKSPACE, tempWorkspace, type TandemWorkbench } from '../support/tandemWorkbench';
import { screenshot } from '../support/workbench';

// Arguments the scripted agent ignores, so each entry's processes can be counted in /proc.
const SHARED_MARKER = '--tandem-e2e-shared';
const SEPARATE_MARKER = '--tandem-e2e-separate';

let tandem: TandemWorkbench | undefined;
let page: Page;
let panel: Frame;
let userSettings: string;

/** A PATH where no agent program of the presets is found (npm puts node_modules/.bin on it). */
function pathWithoutPackageBins(): string {
  const entries = (process.env.PATH ?? '').split(':').filter((entry) => entry && !entry.includes('node_modules'));
  return [dirname(codeServerTools().node), ...entries].join(':');
}

const turns = () => panel.locator('.turn-ended').count();

/** Sends `text` and waits for its turn to end; returns the stop reason. */
async function sendAndWait(text: string, timeoutMs = 30_000): Promise<string | null> {
  const before = await turns();
  await send(panel, text);
  return turnEnd(panel, before + 1, timeoutMs);
}

before(async () => {
  const where = tempWorkspace('claims', SAMPLE_WORKSPACE);
  // A project MCP server, in VS Code's own file: it passes only after the user allows it.
  mkdirSync(join(where.workspace, '.vscode'), { recursive: true });
  // The sample's own workspace setting picks the demo agent; the user's setting is the one under test here.
  rmSync(join(where.workspace, '.vscode', 'settings.json'), { force: true });
  writeFileSync(join(where.workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { docs: { type: 'http', url: 'http://127.0.0.1:9/docs-mcp' } } }, null, 2));
  const scripted = scriptedAgentDefinition();
  tandem = await openTandemWorkbench(where, {
    env: { PATH: pathWithoutPackageBins() },
    settings: {
      'tandem.defaultAgent': 'scripted',
      'tandem.mcpServers': { notes: { type: 'http', url: 'http://127.0.0.1:9/notes-mcp' } },
      'tandem.permissions.autoAllow': { demo: ['search'] },
      'tandem.agents': {
        scripted: { label: 'Scripted agent', command: scripted.command, args: [...scripted.args, SHARED_MARKER] },
        'scripted-separate': { label: 'Scripted separate', command: scripted.command, args: [...scripted.args, SEPARATE_MARKER], share_process: false },
        'scripted-crash': { label: 'Scripted crash', command: scripted.command, args: scripted.args },
      },
    },
  });
  ({ page, panel } = tandem);
  userSettings = join(tandem.server.userDataDir, 'User', 'settings.json');
});

afterEach(async () => {
  if (tandem) await dismissOverlays(page);
});

after(async () => {
  await tandem?.close();
});

describe('README claims in code-server', () => {
  test('tandem.defaultAgent, tandem.mcpServers and .vscode/mcp.json are read from the real settings and file', { timeout: 120_000 }, async () => {
    // A workspace Tandem was never used in starts nothing, with the default agent picked.
    await panel.locator('.connection-status.phase-idle').waitFor({ timeout: 60_000 });
    await screenshot(page, 'claims-default-agent');
    assert.equal(await panel.locator('#tabs-bar .tab.active .tab-agent').innerText(), 'Scripted agent');
    await waitForPickedAgent(panel, 'scripted');
    await send(panel, 'mcp');
    // The project's server is asked about before the session opens; the user's own is not.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    assert.match(await dialog.innerText(), /Start the MCP server "docs" from this project\?[\s\S]*http:\/\/127\.0\.0\.1:9\/docs-mcp[\s\S]*\.vscode\/mcp\.json/);
    await screenshot(page, 'claims-mcp-consent');
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    assert.equal(await turnEnd(panel, 1), 'end_turn');
    assert.equal(await panel.locator('.agent-message').last().innerText(), 'MCP servers: notes:http, docs:http');
  });

  test('tandem.permissions.autoAllow in settings.json lets a tool kind run without asking; taken out of the file, it asks again', { timeout: 120_000 }, async () => {
    await pickAgent(panel, 'Demo agent (offline)');
    assert.equal(await sendAndWait('What is in this workspace?'), 'end_turn');
    const listing = panel.locator('.tool-card').last();
    assert.match(await listing.locator('.permission-note').innerText(), /Allowed automatically: searches inside the workspace/);
    assert.equal(await panel.locator('.permission-options').count(), 0, 'nothing was asked');
    assert.match(await panel.locator('.agent-message').last().innerText(), /README\.md/);
    await screenshot(page, 'claims-auto-allowed');

    // The user takes the entry out of settings.json in the editor and saves: Tandem follows.
    assert.ok(tandem);
    await saveUserSettings(page, tandem.server.userDataDir, (settings) => Object.fromEntries(Object.entries(settings).filter(([key]) => key !== 'tandem.permissions.autoAllow')));
    assert.ok(!readFileSync(userSettings, 'utf8').includes('tandem.permissions.autoAllow'), 'saved without the entry');
    const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
    // The editor reads the file again a moment after it changed: ask until the question shows.
    let asked = false;
    for (let attempt = 0; attempt < 10 && !asked; attempt++) {
      const before = await turns();
      await send(panel, 'What is in this workspace?');
      const ended = panel.locator('.turn-ended').nth(before);
      await allow.or(ended).first().waitFor({ state: 'attached', timeout: 30_000 });
      asked = (await allow.count()) > 0;
      if (asked) await allow.click();
      assert.equal(await turnEnd(panel, before + 1), 'end_turn');
    }
    assert.ok(asked, 'without the setting the listing is asked about');
  });

  test('the message box: Shift+Enter adds a line, Up/Down walk through what was sent, Escape cancels the turn', { timeout: 120_000 }, async () => {
    await pickAgent(panel, 'Scripted agent');
    const input = panel.locator('#composer-input textarea');
    await input.click();
    await input.fill('');
    await page.keyboard.type('echo first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    assert.equal(await composerText(panel), 'echo first line\nsecond line', 'Shift+Enter added a line and sent nothing');
    const before = await turns();
    await page.keyboard.press('Enter');
    assert.equal(await turnEnd(panel, before + 1), 'end_turn');
    assert.equal(await panel.locator('.user-message .user-text').last().innerText(), 'echo first line\nsecond line');
    assert.equal(await sendAndWait('echo another'), 'end_turn');

    await input.click();
    assert.equal(await composerText(panel), '');
    await page.keyboard.press('ArrowUp');
    assert.equal(await composerText(panel), 'echo another');
    await page.keyboard.press('ArrowUp');
    assert.equal(await composerText(panel), 'echo first line\nsecond line');
    await page.keyboard.press('ArrowDown');
    assert.equal(await composerText(panel), 'echo another');
    await page.keyboard.press('ArrowDown');
    assert.equal(await composerText(panel), '', 'past the newest, the box is empty again');

    const running = await turns();
    await page.keyboard.type('slow');
    await page.keyboard.press('Enter');
    await panel.locator('.agent-message', { hasText: 'w10 ' }).last().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    assert.equal(await turnEnd(panel, running + 1), 'cancelled');
    const partial = await panel.locator('.agent-message').last().innerText();
    assert.ok(!partial.includes('w399'), 'the answer stopped before its end');
    await screenshot(page, 'claims-composer-cancelled');
  });

  test('a missing agent program: the panel says so and how to install it', { timeout: 90_000 }, async () => {
    await pickAgent(panel, 'Codex', 'failed');
    const banner = panel.locator('#connection-banner.phase-failed');
    const text = await banner.innerText();
    assert.match(text, /Codex is not installed: "codex-acp" was not found\./);
    assert.match(text, /npm install -g @agentclientprotocol\/codex-acp/);
    assert.ok(await banner.getByRole('button', { name: 'Try again' }).isVisible());
    await screenshot(page, 'claims-missing-program');
  });

  test('a crashed agent: one sentence with how it ended, Show log and Restart, and Restart works', { timeout: 120_000 }, async () => {
    await pickAgent(panel, 'Scripted crash');
    await send(panel, 'crash');
    const banner = panel.locator('#connection-banner.phase-exited');
    await banner.waitFor({ timeout: 30_000 });
    assert.match(await banner.innerText(), /Scripted crash exited with code 3\./);
    assert.match(await banner.innerText(), /simulated crash/, 'its last output is there');
    await screenshot(page, 'claims-crashed');
    await banner.getByRole('button', { name: 'Show log' }).click();
    assert.match(await readOutputChannel(page, 'Tandem'), /simulated crash/);
    await banner.getByRole('button', { name: 'Restart' }).click();
    await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
    assert.equal(await panel.locator('#connection-banner').isHidden(), true);
    assert.equal(await sendAndWait('echo alive again'), 'end_turn');
    assert.equal(await panel.locator('.agent-message').last().innerText(), 'You said: alive again');
  });

  test('tabs: rename by double-click, a busy tab spins, a tab waiting for permission shows a shield', { timeout: 120_000 }, async () => {
    await pickAgent(panel, 'Scripted agent');
    const active = panel.locator('#tabs-bar .tab.active');
    await active.locator('.tab-title').dblclick();
    const rename = panel.locator('#tabs-bar input.tab-rename');
    await rename.waitFor({ timeout: 10_000 });
    await rename.fill('Release notes');
    await rename.press('Enter');
    await active.locator('.tab-title', { hasText: 'Release notes' }).waitFor({ timeout: 10_000 });
    assert.match(await active.getAttribute('title') ?? '', /^Release notes — Scripted agent/);

    await send(panel, 'slow');
    const spinner = active.locator('.tab-busy.codicon-loading');
    await spinner.waitFor({ timeout: 15_000 });
    assert.notEqual(await spinner.evaluate((node) => getComputedStyle(node).animationName), 'none', 'the busy icon turns');
    await screenshot(page, 'claims-tab-busy');
    await panel.locator('#send-button', { hasText: 'Stop' }).click();
    await spinner.waitFor({ state: 'detached', timeout: 15_000 });

    const renamed = panel.locator('#tabs-bar .tab', { hasText: 'Release notes' });
    await send(panel, 'permission');
    await renamed.locator('.tab-waiting.codicon-shield').waitFor({ timeout: 15_000 });
    // Another tab in front: the shield still says where an answer is awaited.
    await openNewTab(panel);
    assert.match(await renamed.getAttribute('title') ?? '', /waiting for your permission/);
    assert.equal(await renamed.locator('.tab-waiting.codicon-shield').count(), 1);
    await screenshot(page, 'claims-tab-waiting');
    await renamed.click();
    await panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true }).click();
    await panel.locator('.agent-message', { hasText: 'Permission outcome: allow-once' }).waitFor({ timeout: 15_000 });
    assert.equal(await renamed.locator('.tab-waiting').count(), 0);
  });

  test('conversations with one agent share its process; "share_process": false gives each its own', { timeout: 150_000 }, async () => {
    // The scripted agent already runs for earlier tabs: one more conversation with it starts no process.
    await openNewTab(panel);
    assert.equal(await pickedAgent(panel), 'scripted');
    assert.equal(await sendAndWait('echo shared'), 'end_turn');
    assert.equal(processesWithArgument(SHARED_MARKER).length, 1, 'one process serves every scripted conversation');

    await pickAgent(panel, 'Scripted separate');
    assert.equal(await sendAndWait('echo one'), 'end_turn');
    await openNewTab(panel);
    assert.equal(await panel.locator('#tabs-bar .tab.active .tab-agent').innerText(), 'Scripted separate');
    assert.equal(await sendAndWait('echo two'), 'end_turn');
    assert.equal(await panel.locator('.agent-message').last().innerText(), 'You said: two');
    assert.equal(processesWithArgument(SEPARATE_MARKER).length, 2, 'each conversation has a process of its own');
    assert.equal(processesWithArgument(SHARED_MARKER).length, 1);
  });

  test('an agent\'s form: filled in the panel, invalid answers are shown at their fields, the valid answer reaches the agent', { timeout: 120_000 }, async () => {
    await pickAgent(panel, 'Scripted agent');
    const before = await turns();
    await send(panel, 'elicit');
    const form = panel.locator('.elicitation.state-open form.elicitation-form');
    await form.waitFor({ timeout: 30_000 });
    const field = (name: string) => form.locator(`.form-field[data-field="${name}"]`);
    await field('email').locator('input').fill('not an address');
    await field('name').locator('input').fill('A');
    await field('replicas').locator('input').fill('9');
    await form.getByRole('button', { name: 'Submit' }).click();
    for (const name of ['email', 'name', 'replicas', 'region', 'features']) {
      await panel.locator(`.elicitation.state-open .form-field.invalid[data-field="${name}"] .form-error`).waitFor({ timeout: 10_000 });
    }
    await screenshot(page, 'claims-form-invalid');
    const open = panel.locator('.elicitation.state-open form.elicitation-form');
    const openField = (name: string) => open.locator(`.form-field[data-field="${name}"]`);
    // What was typed is still there to correct.
    assert.equal(await openField('email').locator('input').inputValue(), 'not an address');
    assert.equal(await openField('name').locator('input').inputValue(), 'A');
    assert.equal(await openField('replicas').locator('input').inputValue(), '9');
    await openField('email').locator('input').fill('ada@example.com');
    await openField('name').locator('input').fill('Ada');
    await openField('replicas').locator('input').fill('3');
    await openField('region').locator('select').selectOption('eu');
    await openField('features').getByLabel('metrics').check();
    await openField('confirm').locator('input').check();
    await open.getByRole('button', { name: 'Submit' }).click();
    assert.equal(await turnEnd(panel, before + 1), 'end_turn');
    const reply = await panel.locator('.agent-message').last().innerText();
    const answer = JSON.parse(reply.replace(/^Elicitation: /, '')) as { action: string; content: Record<string, unknown> };
    assert.deepEqual(answer, { action: 'accept', content: { email: 'ada@example.com', name: 'Ada', replicas: 3, confirm: true, region: 'eu', features: ['metrics'] } });
    await panel.locator('.elicitation.state-accepted', { hasText: 'Answered' }).waitFor({ timeout: 10_000 });
  });
});
