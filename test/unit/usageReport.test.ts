/**
 * The usage report adds up the ledger and nothing else: periods from the user's today (the week
 * from Monday), groups costliest first with what each agent reports, unreported counts said as
 * such, currencies kept apart, and names from files and agents written as text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UsageEntry } from '../../src/usage/usageEntry';
import { usageReport } from '../../src/usage/usageReport';
import { lastDays, periodStarts } from '../../src/usage/usageTotals';

function turn(day: string, overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    v: 1, at: `${day}T10:00:00.000Z`, day, project: '/work/shop', agent: 'claude', agentLabel: 'Claude Code', model: 'Sonnet',
    conversation: 'session-1', sessionId: 'claude-s1', stopReason: 'end_turn', inputTokens: 1000, outputTokens: 200, totalTokens: 1200,
    cost: 0.5, currency: 'USD', ...overrides,
  };
}

/** The rows of the table under `heading`, as arrays of cells. */
function rows(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `a section "${heading}"`);
  const table: string[][] = [];
  for (const line of lines.slice(start + 4)) {
    if (!line.startsWith('|')) break;
    table.push(line.slice(2, -2).split(' | '));
  }
  return table;
}

// Monday 2026-12-07 is today; the week began that day, the month on the 1st.
const LEDGER: UsageEntry[] = [
  turn('2026-11-20', { cost: 9 }),
  turn('2026-12-01', { sessionId: 'claude-s2' }),
  turn('2026-12-06', { agent: 'gemini', agentLabel: 'Gemini CLI', model: null, cost: null, currency: null, sessionId: 'g1' }),
  turn('2026-12-07'),
  turn('2026-12-07', { agent: 'codex', agentLabel: 'Codex', model: 'gpt-5', cost: 2, currency: 'EUR', inputTokens: null, outputTokens: null, totalTokens: null, sessionId: 'x1', project: '/work/a|b' }),
];

describe('the usage report', () => {
  const report = usageReport({ entries: LEDGER, today: '2026-12-07', ledgerFolder: '/storage/usage', skipped: 1 });

  test('totals for today, this week, this month and all, each currency apart, priced turns counted', () => {
    assert.deepEqual(rows(report, 'Totals'), [
      ['Today', '2', '1,200 (1,000 in, 200 out)', '$0.5000 + 2.00 EUR'],
      ['This week', '2', '1,200 (1,000 in, 200 out)', '$0.5000 + 2.00 EUR'],
      ['This month', '4', '3,600 (3,000 in, 600 out)', '$1.00 + 2.00 EUR (3 of 4 turns priced)'],
      ['All recorded', '5', '4,800 (4,000 in, 800 out)', '$10.00 + 2.00 EUR (4 of 5 turns priced)'],
    ]);
    assert.match(report, /1 line\(s\) of the ledger could not be read/);
  });

  test('this month by agent says what each agent reports; an agent without cost is not shown as free', () => {
    assert.deepEqual(rows(report, 'This month by agent'), [
      ['Codex', '1', 'not reported', '2.00 EUR', 'cost'],
      ['Claude Code', '2', '2,400 (2,000 in, 400 out)', '$1.00', 'tokens and cost'],
      ['Gemini CLI', '1', '1,200 (1,000 in, 200 out)', 'not reported', 'tokens'],
    ]);
  });

  test('projects and models from files and agents are text: a pipe does not break the table', () => {
    assert.deepEqual(rows(report, 'This month by project').map((row) => row[0]), ['` /work/a\\|b `', '` /work/shop `']);
    assert.deepEqual(rows(report, 'This month by model').map((row) => row[0]), ['gpt\\-5', 'Sonnet', '_not named by the agent_']);
  });

  test('the last days, newest first, only days with turns; the costliest conversations by session', () => {
    assert.deepEqual(rows(report, 'Last 30 days').map((row) => row[0]), ['2026-12-07', '2026-12-06', '2026-12-01', '2026-11-20']);
    assert.deepEqual(rows(report, 'Costliest conversations').map((row) => [row[0], row[4]]), [
      ['` claude-s1 `', '$9.50'], ['` x1 `', '2.00 EUR'], ['` claude-s2 `', '$0.5000'],
    ]);
  });

  test('a week starts on Monday; a month on the 1st; days run across month ends', () => {
    assert.deepEqual(periodStarts('2026-12-06'), { today: '2026-12-06', week: '2026-11-30', month: '2026-12-01' });
    assert.deepEqual(lastDays('2026-03-01', 3), ['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  test('an empty ledger says so in every table', () => {
    const empty = usageReport({ entries: [], today: '2026-12-07', ledgerFolder: '/storage/usage', skipped: 0 });
    assert.match(empty, /^0 turns recorded, kept in/m);
    assert.equal(empty.split('_None._').length - 1, 5);
  });
});
