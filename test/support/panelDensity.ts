// How much of a narrow panel is thread and how much is fixed chrome, and the demo agent's /tour
// run in the Chromium harness: the real demo program, its edits in the real change ledger, the
// pending changes drawn by the panel, each permission answered by clicking Allow.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { builtInPresets, DEMO_AGENT_ID, resolveAgents, type AgentDefinition } from '../../src/agents/agentConfig';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { ledgerReviewSource } from './ledgerReviewSource';
import type { PanelHarness } from './panelHarness';
import { reviewedFiles } from './reviewHarness';
import { repoRoot, tsxLoader } from './scriptedAgentSpec';
import { quietActions, scriptedEnvironment, tempWorkspace, type TestScope } from './sessionBuilders';
import { terminalServices } from './terminalHarness';
import { screenshot } from './workbench';

export interface ChromeShare {
  panel: number;
  thread: number;
  /** (panel height − thread's visible height) / panel height. */
  share: number;
}

/** The panel's height and the thread's visible height, as drawn now. */
export function chromeShare(page: Page): Promise<ChromeShare> {
  return page.evaluate(() => {
    const panel = document.getElementById('tandem-root')?.getBoundingClientRect().height ?? 0;
    const thread = document.getElementById('thread')?.clientHeight ?? 0;
    return { panel, thread, share: panel === 0 ? 1 : (panel - thread) / panel };
  });
}

/** The thread's whole height (what scrolling covers). */
export function threadHeight(page: Page): Promise<number> {
  return page.evaluate(() => document.getElementById('thread')?.scrollHeight ?? 0);
}

/** The demo preset as Tandem resolves it, its program run from source with tsx. */
function demoDefinition(): AgentDefinition {
  const presets = builtInPresets(join(repoRoot, 'src', 'demo-agent', 'demoAgent.ts'), process.execPath);
  const demo = resolveAgents({}, presets).agents.find((agent) => agent.id === DEMO_AGENT_ID);
  if (!demo) throw new Error('no demo preset');
  return { ...demo, args: ['--import', tsxLoader, ...demo.args] };
}

/** The panel of `harness` on the demo agent in a fresh copy of the sample workspace, its changes under review. */
export function demoPanel(t: TestScope, harness: PanelHarness): { presenter: ChatPresenter; workspace: string } {
  const workspace = tempWorkspace(t, 'tandem-density-');
  cpSync(join(repoRoot, 'scripts', 'sample-workspace'), workspace, { recursive: true });
  const review = reviewedFiles(workspace);
  const environment = scriptedEnvironment(t, { workspace, agent: 'process', scope: { files: review.files, commands: terminalServices.commands } });
  const agents = [demoDefinition()];
  let presenter: ChatPresenter | null = null;
  const toPanel = harness.connect(() => presenter as ChatPresenter);
  const created = new ChatPresenter(() => agents, DEMO_AGENT_ID, environment, toPanel, quietActions, ledgerReviewSource(review.ledger, workspace));
  presenter = created;
  t.after(() => created.dispose());
  return { presenter: created, workspace };
}

/** Sends `/tour` from the message box and clicks Allow on each question until the turn ends (bounded). */
export async function runTour(page: Page): Promise<void> {
  const input = page.locator('#composer-input textarea');
  await input.waitFor({ timeout: 15_000 });
  await page.locator('#config-pickers select').first().waitFor({ timeout: 30_000 });
  await input.fill('/tour');
  // The "/" completion is open: Escape closes it, Enter then sends.
  await input.press('Escape');
  await input.press('Enter');
  await page.locator('.user-message', { hasText: '/tour' }).waitFor({ timeout: 10_000 });
  const ended = page.locator('.turn-ended');
  const allow = page.locator('.tool-card.status-awaiting .permission-options').getByRole('button', { name: 'Allow', exact: true });
  const deadline = Date.now() + 90_000;
  while ((await ended.count()) === 0) {
    if (Date.now() > deadline) {
      await screenshot(page, 'density-tour-stuck');
      throw new Error(`the tour did not end within 90 s; the thread shows:\n${(await page.locator('#thread').innerText()).slice(-1500)}`);
    }
    if ((await allow.count()) > 0) await allow.first().click();
    else await page.waitForTimeout(100);
  }
  // The last pending changes and the terminal's output settle a moment after the turn ends.
  await page.locator('#changes-bar:not([hidden])').waitFor({ timeout: 10_000 });
  await page.waitForTimeout(500);
}
