// README claims about API keys, the command palette and forking, in a real VS Code: code-server
// runs the packaged .vsix, Chromium acts as the user. An API key goes through the password box
// into the editor's secret storage and nowhere else; every contributed command runs from the
// palette; the real Claude adapter (against a scripted model server) forks a conversation.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT } from '../support/code-server';
import { CLAUDE_CODE, openAgentWorkbench, type AgentWorkbench } from '../support/agentWorkbench';
import { localizedManifest } from '../support/manifest';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { clearToasts, dismissOverlays, filesHolding, filesUnder, openNewTab, pickAgent, pickedAgent, readOutputChannel, send, startFromPalette, type Toast, toasts, turnEnd } from '../support/panelUser';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { SAMPLE_WORKSPACE, tempWorkspace } from '../support/tandemWorkbench';
import { screenshot, webviewFrame } from '../support/workbench';

// What the user pastes; long and unlike anything else, so any copy of it anywhere is found.
const API_KEY = 'sk-tandem-e2e-7f3a9c1d5e8b2a4f6c0d';
// Not a secret, put in the user settings: the scan that finds no key must find this.
const SCAN_MARKER = 'tandem-e2e-scan-marker-4b9e1c7a';

let tandem: AgentWorkbench | undefined;
let page: Page;
let panel: Frame;
let model: ScriptedModelServer | undefined;

const turns = () => panel.locator('.turn-ended').count();

async function sendAndWait(text: string, timeoutMs = 30_000): Promise<string | null> {
  const before = await turns();
  await send(panel, text);
  return turnEnd(panel, before + 1, timeoutMs);
}

/** The output channel the panel area shows and the active editor's tab, as the user sees them. */
async function workbenchView(page: Page): Promise<{ output: string; editor: string }> {
  const output = await page.locator('.part.panel select.monaco-select-box').first().evaluate((node) => {
    const select = node as HTMLSelectElement;
    return select.options[select.selectedIndex]?.text ?? '';
  }, undefined, { timeout: 1_000 }).catch(() => '');
  const editor = await page.locator('.tabs-container .tab.active .label-name').first().innerText({ timeout: 1_000 }).catch(() => '');
  return { output, editor };
}

/** The palette rows a user can run: package.json's commands minus those its menus hide for good. */
function paletteCommands(): { command: string; title: string }[] {
  const manifest = localizedManifest<{
    contributes: { commands: { command: string; title: string }[]; menus: { commandPalette?: { command: string; when?: string }[] } };
  }>();
  const hidden = new Set((manifest.contributes.menus.commandPalette ?? []).filter((entry) => entry.when === 'false').map((entry) => entry.command));
  return manifest.contributes.commands.filter((entry) => !hidden.has(entry.command));
}

before(async () => {
  const where = tempWorkspace('keys', SAMPLE_WORKSPACE);
  const scripted = scriptedAgentDefinition();
  tandem = await openAgentWorkbench(where, CLAUDE_CODE, {
    settings: {
      'tandemE2e.scanMarker': SCAN_MARKER,
      // The tour's edits go ahead without a question, so the review commands have changes to act on.
      'tandem.permissions.autoAllow': { demo: ['search', 'read', 'edit', 'delete'] },
      // The registry as served, without a network: Add Agent from Registry lists it.
      'tandem.registryUrl': `data:application/json,${encodeURIComponent(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'registry.json'), 'utf8'))}`,
    },
    agents: {
      'scripted-key': { label: 'Scripted key', command: scripted.command, args: scripted.args, env: { SCRIPTED_AGENT_AUTH: 'apikey' } },
    },
  });
  ({ page, panel, model } = tandem);
});

afterEach(async () => {
  if (tandem) await dismissOverlays(page);
});

after(async () => {
  await tandem?.close();
});

describe('API keys, the palette and forking in code-server', () => {
  test('an API key: typed into a password box, kept in secret storage across a reload, never in settings, the log or the traffic; Sign Out forgets it', { timeout: 240_000 }, async () => {
    assert.ok(tandem);
    await pickAgent(panel, 'Scripted key', 'signInRequired');
    const banner = panel.locator('#connection-banner.phase-signInRequired');
    await banner.getByRole('button', { name: 'Scripted API key' }).click();
    const box = page.locator('.quick-input-widget .quick-input-box input');
    await box.waitFor({ timeout: 15_000 });
    assert.equal(await box.getAttribute('type'), 'password', 'what is typed is not shown');
    assert.match(await page.locator('.quick-input-widget').innerText(), /secret storage/);
    await box.pressSequentially(API_KEY);
    await screenshot(page, 'keys-password-box');
    await box.press('Enter');
    await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
    // The agent accepts a session only once it was started with the key in SCRIPTED_API_KEY.
    assert.equal(await sendAndWait('echo signed in with a key'), 'end_turn');
    assert.equal(await panel.locator('.agent-message').last().innerText(), 'You said: signed in with a key');

    // A new window (a new extension host) reads the key back from the secret storage: a new
    // session, which the agent opens only after an authenticate with the key, needs no question.
    await page.reload({ waitUntil: 'domcontentloaded' });
    panel = await webviewFrame(page, '#tabs-bar .tab.active', 60_000);
    await panel.locator('#tabs-bar .tab.active', { hasText: 'Scripted key' }).waitFor({ timeout: 30_000 });
    await openNewTab(panel);
    assert.equal(await pickedAgent(panel), 'scripted-key');
    assert.equal(await sendAndWait('echo after reload', 60_000), 'end_turn');
    assert.equal(await panel.locator('.agent-message').last().innerText(), 'You said: after reload');
    assert.equal(await page.locator('.quick-input-widget input[type="password"]:visible').count(), 0, 'not asked again');

    // Nowhere in plain sight: no file the editor keeps (settings, state databases, every output
    // channel it wrote), the workspace's settings, the whole log and traffic. code-server keeps
    // extension secrets in the browser (coder/code-server#6450), so no file here is the secret
    // store, and an encrypted one would not hold the plain key anyway: nothing is left out.
    const userData = tandem.server.userDataDir;
    assert.ok(filesHolding(userData, SCAN_MARKER).includes(join(userData, 'User', 'settings.json')), 'the scan finds what the user settings hold');
    assert.deepEqual(filesHolding(userData, API_KEY), [], `no file of ${userData} holds the key`);
    const workspaceSettings = join(tandem.workspace, '.vscode', 'settings.json');
    if (existsSync(workspaceSettings)) assert.ok(!readFileSync(workspaceSettings, 'utf8').includes(API_KEY), `${workspaceSettings} holds no key`);
    const logs = filesUnder(join(userData, 'logs')).filter((file) => file.endsWith('.log'));
    assert.ok(logs.some((file) => /Tandem/.test(file)), `the Tandem channels are among the files scanned: ${logs.length} logs`);
    await startFromPalette(page, 'Show Log');
    const log = await readOutputChannel(page, 'Tandem');
    assert.match(log, /Tandem activated/);
    assert.ok(!log.includes(API_KEY), 'the log holds no key');
    await startFromPalette(page, 'Show Traffic');
    const traffic = await readOutputChannel(page, 'Tandem Traffic');
    // This window's whole channel, first frame to last (the window before the reload wrote the logs checked above).
    assert.match(traffic, /^\S+ → agent \{"jsonrpc":"2\.0","id":0,"method":"initialize"/);
    assert.match(traffic, /"method":"authenticate"/);
    assert.match(traffic, /after reload/);
    assert.ok(!traffic.includes(API_KEY), 'the traffic holds no key');

    await startFromPalette(page, 'Sign Out of Agent');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    assert.match(await dialog.innerText(), /Sign out of Scripted key\?/);
    await dialog.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await panel.locator('.connection-status.phase-idle').waitFor({ timeout: 30_000 });
    assert.match(await panel.locator('.connection-status').getAttribute('title') ?? '', /Signed out of Scripted key/);
    // The next start has no key to give: the agent asks for a sign-in again, also after a reload.
    await page.reload({ waitUntil: 'domcontentloaded' });
    panel = await webviewFrame(page, '#tabs-bar .tab.active', 60_000);
    await panel.locator('#tabs-bar .tab.active', { hasText: 'Scripted key' }).waitFor({ timeout: 30_000 });
    await openNewTab(panel);
    await send(panel, 'echo without a key');
    const signInAgain = panel.locator('#connection-banner.phase-signInRequired');
    const answered = panel.locator('.agent-message', { hasText: 'You said: without a key' });
    await signInAgain.or(answered).first().waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'keys-signed-out-failure');
      throw error;
    });
    assert.equal(await answered.count(), 0, 'the agent got no key after Sign Out');
    await screenshot(page, 'keys-signed-out');
  });

  test('every contributed command runs from the palette without an error; those that need a state say so', { timeout: 300_000 }, async () => {
    // Changes pending from the tour, so the review commands are offered (the palette hides them otherwise).
    await pickAgent(panel, 'Demo agent (offline)');
    // The space closes the command completion, which would take the Enter otherwise.
    assert.equal(await sendAndWait('/tour ', 120_000), 'end_turn');
    await panel.locator('#changes-bar .changes-summary', { hasText: /files? changed/ }).waitFor({ timeout: 15_000 });
    const order = ['tandem.nextChange', 'tandem.keepHunk', 'tandem.previousChange', 'tandem.undoHunk', 'tandem.redoUndo', 'tandem.reviewChanges', 'tandem.undoAllChanges', 'tandem.keepAllChanges'];
    const commands = paletteCommands().sort((a, b) => order.indexOf(a.command) - order.indexOf(b.command));
    const said: Record<string, Toast[]> = {};
    await clearToasts(page);
    for (const { command, title } of commands) {
      const before = await workbenchView(page);
      await startFromPalette(page, title);
      await page.waitForTimeout(1_500);
      // What a command opens (a question, a modal editor, a channel, an editor) is noted and dismissed as a user would.
      const dialog = page.locator('.monaco-dialog-box');
      const asked = (await dialog.isVisible()) ? [{ severity: 'info' as const, text: `dialog: ${await dialog.innerText()}` }] : [];
      const opened = (await page.locator('.monaco-modal-editor-block').count()) > 0 ? [{ severity: 'info' as const, text: 'opened a modal editor' }] : [];
      const after = await workbenchView(page);
      const shown = (['output', 'editor'] as const).filter((part) => after[part] !== before[part]).map((part) => ({ severity: 'info' as const, text: `${part}: ${after[part]}` }));
      await dismissOverlays(page);
      await page.waitForTimeout(300);
      said[command] = [...asked, ...opened, ...shown, ...(await toasts(page))];
      await clearToasts(page);
    }
    const text = (command: string) => (said[command] ?? []).map((toast) => toast.text).join('\n');
    // Those that need a state say which, and those that show something show it.
    const expected: Record<string, RegExp> = {
      'tandem.commentHunk': /^There is no pending agent change here to comment on\.$/m,
      'tandem.signOut': /^dialog: [\s\S]*Sign out of Demo agent \(offline\)\?/,
      'tandem.showFidelityReport': /^Demo agent \(offline\) never asked\.$/m,
      'tandem.showLog': /^output: Tandem$/m,
      'tandem.showTraffic': /^output: Tandem Traffic$/m,
    };
    for (const [command, shows] of Object.entries(expected)) assert.match(text(command), shows, `${command}: ${JSON.stringify(said[command])}`);
    // An error is a red toast, or the workbench's own dialog for a command that threw.
    const errors = Object.entries(said).filter(([, shown]) => shown.some((toast) => toast.severity === 'error' || /resulted in an error/.test(toast.text)));
    assert.deepEqual(errors, [], 'no command showed an error');
    await screenshot(page, 'palette-commands-done');
  });

  test('the real Claude adapter: a conversation forked from its tab continues in a new tab with the history', { timeout: 300_000 }, async () => {
    assert.ok(model);
    await pickAgent(panel, 'Claude Code');
    model.enqueue({ text: 'The original answer.' });
    assert.equal(await sendAndWait('What is the secret word? It is pelican.', 120_000), 'end_turn');
    const original = panel.locator('#tabs-bar .tab.active');
    const originalId = await original.getAttribute('data-tab-id');
    const tabs = await panel.locator('#tabs-bar .tab').count();
    await original.locator('.tab-fork').click();
    await panel.locator(`#tabs-bar .tab.active:not([data-tab-id="${originalId}"])`).waitFor({ timeout: 60_000 });
    assert.equal(await panel.locator('#tabs-bar .tab').count(), tabs + 1, 'the fork is a tab of its own');
    await panel.locator('.agent-message', { hasText: 'The original answer.' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'fork-claude');
    model.enqueue({ text: 'Answer in the fork.' });
    assert.equal(await sendAndWait('Which word did I tell you?', 120_000), 'end_turn');
    assert.equal(await panel.locator('.agent-message').last().innerText(), 'Answer in the fork.');
    const forkTurn = model.requests.filter((request) => request.role === 'main').at(-1);
    assert.ok(JSON.stringify(forkTurn?.body).includes('pelican'), 'the model saw the copied history in the fork');
    // The original tab is still there, untouched by what the fork said.
    await panel.locator(`#tabs-bar .tab[data-tab-id="${originalId}"]`).click();
    await panel.locator(`#tabs-bar .tab.active[data-tab-id="${originalId}"]`).waitFor({ timeout: 15_000 });
    await panel.locator('.agent-message', { hasText: 'Answer in the fork.' }).waitFor({ state: 'detached', timeout: 15_000 });
    assert.deepEqual(await panel.locator('.agent-message').allInnerTexts(), ['The original answer.']);
  });
});
