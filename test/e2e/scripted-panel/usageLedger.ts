// The usage ledger in a real VS Code: turns the scripted agent reports a cumulative cost for land
// in Tandem's global storage, one line each with the turn's own cost, and **Show Usage** renders
// the totals in the editor's Markdown preview from that file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pickAgent, send, startFromPalette, turnEnd } from '../../support/panelUser';
import type { TandemWorkbench } from '../../support/tandemWorkbench';
import { screenshot, webviewFrame } from '../../support/workbench';
import { waitFor } from '../../support/waitFor';
import { ledgerEntries } from '../../support/usageLedgerFiles';

export function describeUsageLedger(workbench: () => TandemWorkbench): void {
  describe('the usage ledger in code-server', () => {
    test('two turns with a cumulative cost of $0.25 then $0.75 are kept as $0.25 and $0.50; Show Usage adds up the file', { timeout: 180_000 }, async () => {
      const { page, panel, server } = workbench();
      // The registry tests before this one selected the agents they added.
      await pickAgent(panel, 'Scripted agent');
      const before = ledgerEntries(server.userDataDir).length;
      const ended = await panel.locator('.turn-ended').count();
      await send(panel, 'usage 1000 200000 0.25');
      assert.equal(await turnEnd(panel, ended + 1), 'end_turn');
      await send(panel, 'usage 3000 200000 0.75');
      assert.equal(await turnEnd(panel, ended + 2), 'end_turn');
      await waitFor(() => ledgerEntries(server.userDataDir).length === before + 2, 'two more turns in the ledger', 10_000);
      const entries = ledgerEntries(server.userDataDir);
      assert.deepEqual(entries.slice(-2).map((entry) => [entry.agentLabel, entry.cost, entry.currency, entry.stopReason]), [
        ['Scripted agent', 0.25, 'USD', 'end_turn'], ['Scripted agent', 0.5, 'USD', 'end_turn'],
      ]);

      await startFromPalette(page, 'Tandem: Show Usage');
      const preview = await webviewFrame(page, 'h1:has-text("Usage")', 30_000);
      const today = preview.locator('tr', { hasText: 'Today' }).first();
      await today.waitFor({ timeout: 20_000 });
      const cells = await today.locator('td').allInnerTexts();
      const priced = entries.filter((entry) => entry.cost !== null);
      const sum = priced.reduce((total, entry) => total + (entry.cost ?? 0), 0);
      assert.equal(cells[1], String(entries.length), 'every turn of the ledger is counted today');
      assert.match(cells[3] ?? '', new RegExp(`^\\$${sum.toFixed(sum < 1 ? 4 : 2).replace('.', '\\.')}`), 'the cost is the sum of the ledger\'s costs');
      assert.ok(await preview.locator('tr', { hasText: 'Scripted agent' }).first().isVisible(), 'the agent has its row');
      await screenshot(page, 'e2e-usage-report');
    });
  });
}
