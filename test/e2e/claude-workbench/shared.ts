// The one workbench every describe of claude-workbench.e2e.test.ts runs in: code-server with the
// packaged .vsix on a copy of the sample workspace, the real Claude adapter against a scripted
// model server, and the panel's frame, which a test that reloads the window replaces here.
import type { Frame, Page } from 'playwright-core';
import type { AgentWorkbench } from '../../support/agentWorkbench';
import type { ScriptedModelServer } from '../../support/model-servers/script';
import { send, turnEnd } from '../../support/panelUser';
import { webviewFrame } from '../../support/workbench';

export interface ClaudeWorkbench {
  readonly tandem: AgentWorkbench;
  readonly page: Page;
  /** The panel's webview frame now: a reload makes a new one. */
  panel: Frame;
  /** The scripted model server; one queue for every describe, so each queues its turn right before the prompt that takes it. */
  readonly model: ScriptedModelServer;
}

/** The shared workbench, once the file's `before` has opened it. */
export type Workbench = () => ClaudeWorkbench;

/** Sends `text` in the active tab and waits for that turn's end; its stop reason. */
export async function sendAndWait(panel: Frame, text: string, timeoutMs = 30_000): Promise<string | null> {
  const before = await panel.locator('.turn-ended').count();
  await send(panel, text);
  return turnEnd(panel, before + 1, timeoutMs);
}

/** Reloads the window (a new extension host) and waits for the panel to show the tab `label` again. */
export async function reloadWindow(bench: ClaudeWorkbench, label: string): Promise<Frame> {
  await bench.page.reload({ waitUntil: 'domcontentloaded' });
  bench.panel = await webviewFrame(bench.page, '#tabs-bar .tab.active', 60_000);
  await bench.panel.locator('#tabs-bar .tab.active', { hasText: label }).waitFor({ timeout: 30_000 });
  return bench.panel;
}
