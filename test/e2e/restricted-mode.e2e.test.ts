// Restricted Mode in a real VS Code: code-server with workspace trust on opens a folder nobody
// trusted. Tandem starts no agent there, whatever the user does or the folder's settings say,
// and the panel says why; once the user trusts the folder, the agent starts and answers.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { closeModalEditor, pickAgent, processesWithArgument, readOutputChannel, send, startFromPalette, turnEnd } from '../support/panelUser';
import { openTandemWorkbench, SAMPLE_WORKSPACE, tempWorkspace, type TandemWorkbench } from '../support/tandemWorkbench';
import { screenshot } from '../support/workbench';

let tandem: TandemWorkbench | undefined;
let page: Page;
let panel: Frame;
let marker: string;

/** Processes of the demo agent this code-server's Tandem would start (its script is in the extensions dir). */
const demoAgents = () => processesWithArgument((arg) => tandem !== undefined && arg.startsWith(tandem.server.extensionsDir) && arg.endsWith('demo-agent.js'));

before(async () => {
  const where = tempWorkspace('restricted', SAMPLE_WORKSPACE);
  marker = join(where.tmp, 'project-agent-ran');
  // What a hostile project could put in its own settings: an "agent" that runs a command.
  mkdirSync(join(where.workspace, '.vscode'), { recursive: true });
  writeFileSync(join(where.workspace, '.vscode', 'settings.json'), JSON.stringify({
    'tandem.defaultAgent': 'project-agent',
    'tandem.agents': { 'project-agent': { label: 'Project agent', command: 'touch', args: [marker] } },
  }, null, 2));
  tandem = await openTandemWorkbench(where, { trustWorkspace: false, settings: { 'tandem.defaultAgent': 'demo' } });
  ({ page, panel } = tandem);
});

after(async () => {
  await tandem?.close();
});

describe('Restricted Mode in code-server', () => {
  test('an untrusted folder: nothing is spawned, whatever the user does, and the panel says why', { timeout: 180_000 }, async () => {
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
    const banner = panel.locator('#connection-banner.phase-restricted');
    await banner.waitFor({ timeout: 30_000 });
    assert.match(await banner.innerText(), /Tandem does not start agents in Restricted Mode: trust this workspace to use one\./);
    assert.match(await panel.locator('.connection-status').innerText(), /Restricted Mode/);
    // The folder's own settings choose no agent here: their agent is not even offered.
    assert.equal(await panel.locator('#agent-picker vscode-option[value="project-agent"]').count(), 0);
    assert.equal(await panel.locator('#tabs-bar .tab.active .tab-agent').innerText(), 'Demo agent (offline)');
    await screenshot(page, 'restricted-banner');

    // Every way an agent starts elsewhere: a message, picking an agent, Restart, New Conversation.
    await send(panel, 'What is in this workspace?');
    await panel.locator('#agent-picker').click();
    await panel.locator('#agent-picker li.option', { hasText: 'Gemini CLI' }).click();
    await startFromPalette(page, 'Restart Agent');
    await startFromPalette(page, 'New Conversation');
    await page.waitForTimeout(3_000);
    assert.deepEqual(demoAgents(), [], 'no demo agent process');
    assert.equal(existsSync(marker), false, 'the project\'s command never ran');
    await panel.locator('#connection-banner.phase-restricted').waitFor({ timeout: 10_000 });
    // Tandem's log, read as the user reads it: its start line proves the channel was read (an
    // empty read would pass any "absent" check), and no agent was spawned after it.
    await startFromPalette(page, 'Show Log');
    const log = await readOutputChannel(page, 'Tandem');
    assert.match(log, /Tandem activated \(.*trusted false\)/, `the log was read: ${JSON.stringify(log.slice(0, 300))}`);
    assert.doesNotMatch(log, /spawning /, 'no agent was spawned');
    // Empty here: the same read shows the frames once the folder is trusted (the next test).
    await startFromPalette(page, 'Show Traffic');
    assert.doesNotMatch(await readOutputChannel(page, 'Tandem Traffic'), /jsonrpc/, 'not one frame went to an agent');
  });

  test('once the user trusts the folder, the agent starts and answers', { timeout: 180_000 }, async () => {
    await startFromPalette(page, 'Workspaces: Manage Workspace Trust');
    const trust = page.getByRole('button', { name: 'Trust', exact: true });
    await trust.first().waitFor({ timeout: 30_000 });
    await trust.first().click();
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    await panel.locator('#connection-banner.phase-restricted').waitFor({ state: 'hidden', timeout: 30_000 });
    // The trust editor opened over the window; close it to get back to the panel.
    await closeModalEditor(page);
    // Picking the agent starts it (trust given, the pick counts as use): the test waits until it is ready.
    await pickAgent(panel, 'Demo agent (offline)');
    const ended = await panel.locator('.turn-ended').count();
    await send(panel, 'What is in this workspace?');
    const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
    await allow.waitFor({ timeout: 60_000 });
    await allow.click();
    assert.equal(await turnEnd(panel, ended + 1), 'end_turn');
    assert.match(await panel.locator('.agent-message').last().innerText(), /README\.md/);
    assert.equal(demoAgents().length, 1, 'the demo agent runs now');
    await startFromPalette(page, 'Show Traffic');
    assert.match(await readOutputChannel(page, 'Tandem Traffic'), /"method":"initialize"/, 'the traffic read that found no frame before finds them now');
    await startFromPalette(page, 'Show Log');
    assert.match(await readOutputChannel(page, 'Tandem'), /spawning /, 'the log read that found no spawn before finds it now');
  });
});
