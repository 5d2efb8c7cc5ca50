// The composer before anything was sent, in a real VS Code: in a workspace Tandem was never used
// in, the agent starts with the first message, so "/" has no commands yet and says why; the icon
// buttons show their names over them, in the editor's own hover colours.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TandemWorkbench } from '../../support/tandemWorkbench';
import { screenshot } from '../../support/workbench';

/** Registers the checks on the shared workbench. Register it first: the agent must not have started. */
export function describeFirstCommands(workbench: () => TandemWorkbench): void {
  describe('the composer before the first message, in code-server', () => {
    test('"/" says the agent lists its commands once it has started, and starts nothing; the eye names itself on hover', async () => {
      const { page, panel } = workbench();
      const input = panel.locator('#composer-input textarea');
      await input.click();
      await input.pressSequentially('/');
      const hint = panel.locator('#command-hint');
      await hint.waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await hint.innerText(), 'The agent lists its commands once it has started: send a message to start it.');
      assert.equal(await panel.locator('.completion-item').count(), 0);
      assert.equal(await panel.locator('.turn-ended, .user-message').count(), 0, 'nothing was sent');
      await input.fill('');
      await hint.waitFor({ state: 'hidden', timeout: 5_000 });
      await panel.locator('#follow-agent').hover();
      const tip = panel.locator('#follow-agent .icon-tip');
      await tip.waitFor({ state: 'visible', timeout: 5_000 });
      assert.equal(await tip.innerText(), 'Follow the agent: open each file it touches in the editor');
      await screenshot(page, 'code-server-icon-tip');
      await input.click();
    });
  });
}
