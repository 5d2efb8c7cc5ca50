/**
 * `npm run stress -- --quick` inside `npm test`: each row is one test, run with its small
 * counts; it fails when the row counted any failure, with the row's detail lines as the message.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ROWS } from './rows';
import { runRow } from './runner';

/** Beyond a row's own budget: its cleanup grace, and code-server's stop. */
const SLACK_MS = 60_000;

describe('stress rows, quick counts', () => {
  for (const row of ROWS) {
    test(`stress ${row.name}`, { timeout: row.budgetSeconds.quick * 1000 + SLACK_MS }, async (t) => {
      const report = await runRow(row, { quick: true, progress: () => undefined });
      assert.equal(report.failures, 0, report.lines.join('\n'));
      assert.ok(report.tried > 0, `${row.name} tried nothing`);
      for (const line of report.lines) t.diagnostic(line);
    });
  }
});
