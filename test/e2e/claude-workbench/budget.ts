// A budget with the real Claude adapter, whose cost comes in its usage_update at the end of a
// turn: the turn is kept in the ledger with that cost, the next message over the limit does not
// reach the model and the thread says why, and raising the limit in the user's settings lets the
// conversation go on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ledgerEntries as ledger } from '../../support/usageLedgerFiles';
import { freshConversation, pickAgent, saveUserSettings } from '../../support/panelUser';
import { waitFor } from '../../support/waitFor';
import { screenshot } from '../../support/workbench';
import { sendAndWait, type Workbench } from './shared';

export function describeBudget(workbench: Workbench): void {
  describe('a budget with the real Claude adapter in code-server', () => {
    test('the turn\'s cost is kept; over the conversation\'s limit the next message does not reach the model; raised, it goes', { timeout: 300_000 }, async () => {
      const { page, model, tandem } = workbench();
      const userDataDir = tandem.server.userDataDir;
      await freshConversation(workbench().panel);
      const panel = workbench().panel;
      await pickAgent(panel, 'Claude Code');
      await saveUserSettings(page, userDataDir, (settings) => ({ ...settings, 'tandem.budget.perConversation': 0.000001 }));
      try {
        const before = ledger(userDataDir).length;
        model.enqueue({ text: 'A priced answer.' });
        // Claude's adapter reports the cost with the turn's end: the limit is crossed as the answer is done.
        assert.ok(['end_turn', 'cancelled'].includes(String(await sendAndWait(panel, 'Answer once.', 120_000))));
        await panel.locator('.agent-message', { hasText: 'A priced answer.' }).waitFor({ timeout: 10_000 });
        const kept = await waitFor(() => ledger(userDataDir).slice(before).find((entry) => entry.agent === 'claude-code'), 'the turn in the ledger', 15_000);
        assert.ok(kept.cost !== null && kept.cost > 0 && kept.currency === 'USD', `a cost from the adapter: ${JSON.stringify(kept)}`);

        const requests = model.requests.filter((request) => request.role === 'main').length;
        assert.equal(await sendAndWait(panel, 'Answer again.', 60_000), 'error');
        await panel.locator('.turn-ended', { hasText: "this conversation's budget is reached" }).last().waitFor({ timeout: 10_000 });
        assert.equal(model.requests.filter((request) => request.role === 'main').length, requests, 'the model was not asked');
        await screenshot(page, 'e2e-budget-reached');
      } finally {
        // Raised even when a check above failed: the tests after this one run Claude turns too.
        await saveUserSettings(page, userDataDir, (settings) => ({ ...settings, 'tandem.budget.perConversation': 100 }));
      }
      model.enqueue({ text: 'Going on.' });
      assert.equal(await sendAndWait(panel, 'Answer now.', 120_000), 'end_turn');
      assert.equal(await panel.locator('.agent-message').last().innerText(), 'Going on.');
    });
  });
}
