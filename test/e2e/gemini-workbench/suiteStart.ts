// How a suite in the shared Gemini workbench starts from whatever the suites before it left:
// no editor, bottom panel or follow mode open, no pending change, its settings saved as a user
// saves them, and the agent it talks to in front.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { openNewTab, saveUserSettings } from '../../support/panelUser';
import { runCommand } from '../../support/workbench';
import { explainTimeout, selectAgent } from './panelSteps';
import { barButton, pendingFiles, useWorkbench } from './reviewBytesSteps';
import type { GeminiWorkbench } from './workbench';

/** Saves `wanted` into the user's settings.json from the editor, unless it already holds them. */
async function useSettings(w: GeminiWorkbench, wanted: Record<string, unknown>): Promise<void> {
  const saved = JSON.parse(readFileSync(join(w.tandem.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  if (Object.entries(wanted).every(([key, value]) => JSON.stringify(saved[key]) === JSON.stringify(value))) return;
  await saveUserSettings(w.page, w.tandem.server.userDataDir, (settings) => ({ ...settings, ...wanted }));
}

/** The workbench settled for a suite that checks files as bytes; the byte steps act on its panel as it is now. */
export async function settleWorkbench(w: GeminiWorkbench, settings: Record<string, unknown>): Promise<void> {
  const { page, panel } = w;
  useWorkbench(w);
  // First, so that settings.json is the only editor to type in.
  await runCommand(page, 'Close All Editors');
  await explainTimeout(page, panel, useSettings(w, settings), 'the suite\'s settings were not saved');
  // The palette offers "Hide Panel" only while the panel shows.
  if (await page.locator('.part.panel').first().isVisible()) await runCommand(page, 'Hide Panel');
  const follow = panel.locator('#follow-agent[aria-pressed="true"]');
  if (await follow.count() > 0) {
    await follow.click();
    await panel.locator('#follow-agent[aria-pressed="false"]').waitFor({ timeout: 10_000 });
  }
  if (await barButton('Keep all').isVisible()) await barButton('Keep all').click();
  await pendingFiles(0);
}

/** A new, empty conversation with the agent, in a tab of its own next to those left open. */
export async function newConversationWith(panel: Frame, label: string, id: string): Promise<void> {
  await openNewTab(panel);
  // An empty conversation takes the agent picked in its place.
  await selectAgent(panel, label, id);
}
