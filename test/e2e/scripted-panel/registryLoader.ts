// A registry listing that sets a loader variable (NODE_OPTIONS), added through the real editor:
// after the summary, the user is asked about that variable on its own, and what reaches
// tandem.agents in the user's settings.json is exactly what they said yes to. Closing the
// question adds nothing.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { dismissOverlays, startFromPalette } from '../../support/panelUser';
import type { TandemWorkbench } from '../../support/tandemWorkbench';
import { screenshot } from '../../support/workbench';
import { waitFor } from '../../support/waitFor';

const LOADER = '--require /tmp/tandem-e2e-loader.js';

/** Three listings of one shape, one per answer the user can give. */
const listing = (id: string, name: string) => ({
  id,
  name,
  version: '1.4.2',
  description: 'Sets a loader variable',
  distribution: { npx: { package: '@fixture/loader-agent', args: ['--acp'], env: { NODE_OPTIONS: LOADER, FIXTURE_MODE: 'acp' } } },
});
const REGISTRY = { version: '1.0.0', agents: [listing('loader-left-out', 'Loader left out'), listing('loader-kept', 'Loader kept'), listing('loader-dismissed', 'Loader dismissed')] };

/** The user settings the shared workbench starts with for these tests: the registry above. */
export const REGISTRY_LOADER_SETTINGS = { 'tandem.registryUrl': `data:application/json,${encodeURIComponent(JSON.stringify(REGISTRY))}` };

type AgentsSetting = Record<string, { command: string; args: string[]; env?: Record<string, string> }>;

/** Registers the registry checks on the shared workbench, started with REGISTRY_LOADER_SETTINGS. */
export function describeRegistryLoader(workbench: () => TandemWorkbench): void {
  let page: Page;
  /** The agents the user had before these tests added any. */
  let startingAgents: string[] = [];

  /** The user's tandem.agents; none while the editor is part way through writing the file. */
  function agentsInSettings(): AgentsSetting {
    const file = join(workbench().server.userDataDir, 'User', 'settings.json');
    if (!existsSync(file)) return {};
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { 'tandem.agents'?: AgentsSetting })['tandem.agents'] ?? {};
    } catch (error) {
      if (error instanceof SyntaxError) return {};
      throw error;
    }
  }

  /** Add Agent from Registry…, the listing picked, the summary accepted; resolves at the variable's own question. */
  async function addUntilVariableQuestion(name: string): Promise<string> {
    await startFromPalette(page, 'Add Agent from Registry…');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: name });
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const summary = page.locator('.monaco-dialog-box', { hasText: `Add ${name} from the ACP registry?` });
    await summary.waitFor({ timeout: 30_000 });
    const shown = await summary.innerText();
    assert.match(shown, /@fixture\/loader-agent@1\.4\.2/);
    assert.match(shown, /NODE_OPTIONS="--require \/tmp\/tandem-e2e-loader\.js"\s+\(asked separately\)/);
    await summary.getByRole('button', { name: 'Add Agent' }).click();
    const question = page.locator('.monaco-dialog-box', { hasText: `Let ${name} set NODE_OPTIONS?` });
    await question.waitFor({ timeout: 30_000 });
    return question.innerText();
  }

  describe('a registry listing with a loader variable, added in code-server', () => {
    before(() => {
      ({ page } = workbench());
      startingAgents = Object.keys(agentsInSettings());
    });

    afterEach(async () => {
      await dismissOverlays(page);
    });

    test('left out: the agent is added pinned, without NODE_OPTIONS', { timeout: 120_000 }, async () => {
      const question = await addUntilVariableQuestion('Loader left out');
      assert.match(question, /loads code into every Node\.js program/);
      await screenshot(page, 'e2e-registry-loader-question');
      assert.equal(agentsInSettings()['loader-left-out'], undefined, 'nothing is written before the answer');
      await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Leave NODE_OPTIONS Out' }).click();
      const added = await waitFor(() => agentsInSettings()['loader-left-out'], 'the agent in settings.json', 15_000);
      assert.deepEqual(added, { label: 'Loader left out', command: 'npx', args: ['--yes', '@fixture/loader-agent@1.4.2', '--acp'], env: { FIXTURE_MODE: 'acp' } });
    });

    test('kept: NODE_OPTIONS is written only after its own yes', { timeout: 120_000 }, async () => {
      await addUntilVariableQuestion('Loader kept');
      await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Keep NODE_OPTIONS' }).click();
      const added = await waitFor(() => agentsInSettings()['loader-kept'], 'the agent in settings.json', 15_000);
      assert.deepEqual(added?.env, { NODE_OPTIONS: LOADER, FIXTURE_MODE: 'acp' });
    });

    test('the question closed: nothing is added', { timeout: 120_000 }, async () => {
      await addUntilVariableQuestion('Loader dismissed');
      await page.keyboard.press('Escape');
      await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 10_000 });
      // Give a write that should not happen the time the others took.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      assert.equal(agentsInSettings()['loader-dismissed'], undefined);
      // The shared workbench's own agents were there before; the two added ones join them, nothing else.
      assert.deepEqual(Object.keys(agentsInSettings()).sort(), [...startingAgents, 'loader-kept', 'loader-left-out'].sort());
    });
  });
}
