// An API key goes through the password box into the editor's secret storage and nowhere else:
// not the settings, the state databases, the log or the traffic; Sign Out forgets it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { filesHolding, filesUnder, openNewTab, pickAgent, pickedAgent, readOutputChannel, send, startFromPalette } from '../../support/panelUser';
import { screenshot } from '../../support/workbench';
import { reloadWindow, sendAndWait, type Workbench } from './shared';

// What the user pastes; long and unlike anything else, so any copy of it anywhere is found.
const API_KEY = 'sk-tandem-e2e-7f3a9c1d5e8b2a4f6c0d';
/** Not a secret, put in the user settings: the scan that finds no key must find this. */
export const SCAN_MARKER = 'tandem-e2e-scan-marker-4b9e1c7a';
/** The `tandem.agents` entry of the agent that asks for a key. */
export const KEY_AGENT_LABEL = 'Scripted key';

export function describeApiKeys(workbench: Workbench): void {
  describe('an API key in code-server', () => {
    test('an API key: typed into a password box, kept in secret storage across a reload, never in settings, the log or the traffic; Sign Out forgets it', { timeout: 240_000 }, async () => {
      const bench = workbench();
      const { page, tandem } = bench;
      let { panel } = bench;
      await pickAgent(panel, KEY_AGENT_LABEL, 'signInRequired');
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
      assert.equal(await sendAndWait(panel, 'echo signed in with a key'), 'end_turn');
      assert.equal(await panel.locator('.agent-message').last().innerText(), 'You said: signed in with a key');

      // A new window (a new extension host) reads the key back from the secret storage: a new
      // session, which the agent opens only after an authenticate with the key, needs no question.
      panel = await reloadWindow(bench, KEY_AGENT_LABEL);
      await openNewTab(panel);
      assert.equal(await pickedAgent(panel), 'scripted-key');
      assert.equal(await sendAndWait(panel, 'echo after reload', 60_000), 'end_turn');
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
      panel = await reloadWindow(bench, KEY_AGENT_LABEL);
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
  });
}
