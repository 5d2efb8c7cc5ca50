// What the panel's tests in the shared Gemini workbench do again and again: send and allow, wait
// for a turn's end, pick an agent, read Tandem's records on the server's disk, explain a timeout.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { pickAgent, pickedAgent, send, turnEnd } from '../../support/panelUser';
import { screenshot } from '../../support/workbench';
import { until } from './workbench';

/** A wait that failed says what the panel (thread, changes bar) and the workbench's notifications showed then, so a failure far from here can be understood. */
export async function explainTimeout(page: Page, panel: Frame, wait: Promise<unknown>, what: string): Promise<void> {
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

/** The newest turn-ended marker's stop reason, waiting until there are `count` of them. */
export async function waitForTurnEnd(frame: Frame, count: number, timeoutMs = 60_000): Promise<string | null> {
  const reason = await turnEnd(frame, count, timeoutMs);
  if (reason === 'error') throw new Error(`the turn failed: ${await frame.locator('.turn-ended').nth(count - 1).textContent()}`);
  return reason;
}

/** Sends `text`, allows the edit its turn asks permission for, and expects the turn to end normally. */
export async function sendAllowingItsEdit(panel: Frame, text: string): Promise<void> {
  const turns = await panel.locator('.turn-ended').count();
  await send(panel, text);
  const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
  await allow.waitFor({ timeout: 60_000 });
  await allow.click();
  assert.equal(await waitForTurnEnd(panel, turns + 1, 90_000), 'end_turn');
}

/** Picks an agent in the panel's picker and waits for the connection phase it should reach. */
export async function selectAgent(panel: Frame, label: string, id: string, phase = 'ready'): Promise<void> {
  // A used conversation keeps its agent: the choice opens a new tab, which must be showing first.
  await pickAgent(panel, label, phase);
  assert.equal(await pickedAgent(panel), id);
}

/** Polls a condition that depends on the editor and the disk, bounded. */
export const waitForDisk = (condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> =>
  until(condition, 'the editor and disk to settle', timeoutMs);

/** The text of one of Tandem's workspace records, in the extension's workspace storage folder on the server's disk ('' until written). */
export function workspaceRecord(userDataDir: string, key: string): string {
  const storage = join(userDataDir, 'User', 'workspaceStorage');
  for (const folder of existsSync(storage) ? readdirSync(storage) : []) {
    const file = join(storage, folder, 'tandem-acp.tandem', 'state', `${key}.json`);
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return '';
}
