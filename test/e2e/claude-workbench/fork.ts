// Forking a conversation of the real Claude adapter: the fork continues in a tab of its own with
// the history, and the original tab is left as it was.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pickAgent } from '../../support/panelUser';
import { screenshot } from '../../support/workbench';
import { sendAndWait, type Workbench } from './shared';

export function describeFork(workbench: Workbench): void {
  describe('forking a conversation in code-server', () => {
    test('the real Claude adapter: a conversation forked from its tab continues in a new tab with the history', { timeout: 300_000 }, async () => {
      const { page, panel, model } = workbench();
      await pickAgent(panel, 'Claude Code');
      model.enqueue({ text: 'The original answer.' });
      assert.equal(await sendAndWait(panel, 'What is the secret word? It is pelican.', 120_000), 'end_turn');
      const original = panel.locator('#tabs-bar .tab.active');
      const originalId = await original.getAttribute('data-tab-id');
      const tabs = await panel.locator('#tabs-bar .tab').count();
      await original.locator('.tab-fork').click();
      await panel.locator(`#tabs-bar .tab.active:not([data-tab-id="${originalId}"])`).waitFor({ timeout: 60_000 });
      assert.equal(await panel.locator('#tabs-bar .tab').count(), tabs + 1, 'the fork is a tab of its own');
      await panel.locator('.agent-message', { hasText: 'The original answer.' }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'fork-claude');
      model.enqueue({ text: 'Answer in the fork.' });
      assert.equal(await sendAndWait(panel, 'Which word did I tell you?', 120_000), 'end_turn');
      assert.equal(await panel.locator('.agent-message').last().innerText(), 'Answer in the fork.');
      const forkTurn = model.requests.filter((request) => request.role === 'main').at(-1);
      assert.ok(JSON.stringify(forkTurn?.body).includes('pelican'), 'the model saw the copied history in the fork');
      // The original tab is still there, untouched by what the fork said.
      await panel.locator(`#tabs-bar .tab[data-tab-id="${originalId}"]`).click();
      await panel.locator(`#tabs-bar .tab.active[data-tab-id="${originalId}"]`).waitFor({ timeout: 15_000 });
      await panel.locator('.agent-message', { hasText: 'Answer in the fork.' }).waitFor({ state: 'detached', timeout: 15_000 });
      assert.deepEqual(await panel.locator('.agent-message').allInnerTexts(), ['The original answer.']);
    });
  });
}
