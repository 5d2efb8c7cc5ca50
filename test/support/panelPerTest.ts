/**
 * The setup of the Chromium-harness test files: one browser for every test of the calling file,
 * and for each test a panel page of its own, closed when that test ends.
 */
import { after, before } from 'node:test';
import type { HostToWebview } from '../../src/contract/messages';
import type { PanelStrings } from '../../src/contract/panelStrings';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { openPanel, type PanelHarness } from './panelHarness';
import { quietActions, scriptedDefinition, scriptedEnvironment, type TestScope } from './sessionBuilders';
import { launchBrowser, type WorkbenchBrowser } from './workbench';

/** Call at the top level of a test file; the returned function opens the panel of one test. */
export function panelPerTest(viewport = { width: 520, height: 900 }): (t: TestScope, strings?: PanelStrings) => Promise<PanelHarness> {
  let browser: WorkbenchBrowser | undefined;
  before(async () => {
    browser = await launchBrowser({ viewport });
  });
  after(async () => {
    await browser?.close();
  });
  return async (t, strings) => {
    const harness = await openPanel({ browser, strings });
    t.after(() => harness.close());
    return harness;
  };
}

/**
 * The panel of `harness` driven by a ChatPresenter on the scripted agent (or on `agents`, the
 * first picked), disposed when the test ends; `watch` sees every message posted to the panel.
 */
export function scriptedPanelPresenter(t: TestScope, harness: PanelHarness, options: { agents?: AgentDefinition[]; watch?: (message: HostToWebview) => void } = {}): ChatPresenter {
  const agents = options.agents ?? [scriptedDefinition()];
  let presenter: ChatPresenter | null = null;
  const toPanel = harness.connect(() => presenter as ChatPresenter);
  const post = (message: HostToWebview) => {
    options.watch?.(message);
    toPanel(message);
  };
  const created = new ChatPresenter(() => agents, agents[0]?.id ?? 'scripted', scriptedEnvironment(t), post, quietActions, null);
  presenter = created;
  t.after(() => created.dispose());
  return created;
}
