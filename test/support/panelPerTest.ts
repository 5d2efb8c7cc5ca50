/**
 * The setup of the Chromium-harness test files: one browser for every test of the calling file,
 * and for each test a panel page of its own, closed when that test ends.
 */
import { after, before } from 'node:test';
import { openPanel, type PanelHarness } from './panelHarness';
import type { TestScope } from './sessionBuilders';
import { launchBrowser, type WorkbenchBrowser } from './workbench';

/** Call at the top level of a test file; the returned function opens the panel of one test. */
export function panelPerTest(viewport = { width: 520, height: 900 }): (t: TestScope) => Promise<PanelHarness> {
  let browser: WorkbenchBrowser | undefined;
  before(async () => {
    browser = await launchBrowser({ viewport });
  });
  after(async () => {
    await browser?.close();
  });
  return async (t) => {
    const harness = await openPanel({ browser });
    t.after(() => harness.close());
    return harness;
  };
}
