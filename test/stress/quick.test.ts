/**
 * `npm run stress -- --quick` inside `npm test`: each row is one test, run with its small
 * counts; it fails when the row counted any failure, with the row's detail lines as the message.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ROWS } from './rows';
import { runRow } from './runner';
import { CASES, type StressRow } from './row';

/** The rows `npm run stress` promises, in its order: a row that goes missing fails the suite. */
const PROMISED_ROWS = ['frames', 'kills', 'paths', 'undo', 'markdown', 'secrets', 'project-files'];

/** Beyond a row's own budget: its cleanup grace, and code-server's stop. */
const SLACK_MS = 60_000;

describe('the stress suite itself', () => {
  test('has every row it promises, each with minimums for both runs', () => {
    assert.deepEqual(ROWS.map((row) => row.name), PROMISED_ROWS);
    for (const row of ROWS) {
      for (const run of ['quick', 'full'] as const) assert.ok(Object.keys(row.minimums[run]).length > 0, `${row.name} has no ${run} minimums`);
    }
  });

  test('a row that tried fewer cases than its minimum fails, though every case held', async () => {
    const short: StressRow = {
      name: 'short',
      budgetSeconds: { quick: 5, full: 5 },
      minimums: { quick: { [CASES]: 3, extra: 1 }, full: { [CASES]: 3 } },
      run: async (_options, tally) => {
        tally.record();
        tally.record();
      },
    };
    const report = await runRow(short, { quick: true, progress: () => undefined });
    assert.equal(report.tried, 2);
    assert.equal(report.failures, 2);
    assert.deepEqual(report.lines.slice(0, 3), ['STRESS short: tried 2, failures 2', '  failed: tried 2 cases, fewer than the 3 it must', '  failed: tried 0 extra, fewer than the 1 it must']);
  });
});

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
