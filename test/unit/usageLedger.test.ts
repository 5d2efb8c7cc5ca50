/**
 * The usage ledger on a real disk: one line per turn in a file per month, read back after a torn
 * write (as a killed editor leaves it), shared by two windows appending at once, bounded by
 * months kept and a size cap, and exported as CSV.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { usageCsv } from '../../src/usage/usageCsv';
import { localDay, type UsageEntry } from '../../src/usage/usageEntry';
import { LEDGER_MONTH_MAX_BYTES, UsageLedger } from '../../src/usage/usageLedger';
import { silentLogger } from '../../src/util/logger';
import { tempWorkspace } from '../support/sessionBuilders';

function entry(day: string, overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    v: 1, at: `${day}T12:00:00.000Z`, day, project: '/work/shop', agent: 'claude', agentLabel: 'Claude Code', model: 'Sonnet',
    conversation: 'session-1', sessionId: 's-1', stopReason: 'end_turn', inputTokens: 1200, outputTokens: 300, totalTokens: 1500,
    cost: 0.15, currency: 'USD', ...overrides,
  };
}

function recordingLogger(): { warnings: string[]; logger: typeof silentLogger } {
  const warnings: string[] = [];
  return { warnings, logger: { ...silentLogger, warn: (message: string) => warnings.push(message) } };
}

describe('the usage ledger', () => {
  test('turns go to a file per month, one line each, and come back in order with every field', async (t) => {
    const folder = join(tempWorkspace(t), 'usage');
    const ledger = new UsageLedger(folder, silentLogger);
    const turns = [entry('2026-11-30'), entry('2026-12-01', { cost: null, currency: null, agent: 'gemini' }), entry('2026-12-07', { inputTokens: null })];
    for (const turn of turns) ledger.record(turn);
    const read = await ledger.read();
    assert.deepEqual(read, { entries: turns, skipped: 0 });
    assert.deepEqual(readdirSync(folder).sort(), ['usage-2026-11.jsonl', 'usage-2026-12.jsonl']);
    assert.equal(readFileSync(join(folder, 'usage-2026-12.jsonl'), 'utf8').split('\n').length, 3, 'two lines and the final newline');
  });

  test('a line torn by a crash mid-write is skipped, and the next turn starts a line of its own', async (t) => {
    const folder = join(tempWorkspace(t), 'usage');
    const first = new UsageLedger(folder, silentLogger);
    first.record(entry('2026-12-07'));
    await first.flushed();
    const whole = JSON.stringify(entry('2026-12-07', { conversation: 'torn' }));
    appendFileSync(join(folder, 'usage-2026-12.jsonl'), whole.slice(0, whole.length / 2));
    // The editor starts again: a new ledger on the same folder.
    const after = new UsageLedger(folder, silentLogger);
    after.record(entry('2026-12-07', { conversation: 'after' }));
    const read = await after.read();
    assert.deepEqual(read.entries.map((turn) => turn.conversation), ['session-1', 'after']);
    assert.equal(read.skipped, 1);
  });

  test('a damaged line (not JSON, or a field of the wrong type) is counted and left out of the totals', async (t) => {
    const folder = tempWorkspace(t);
    writeFileSync(join(folder, 'usage-2026-12.jsonl'), `${JSON.stringify(entry('2026-12-07'))}\nnot json\n${JSON.stringify({ ...entry('2026-12-07'), cost: '0.15' })}\n`, { flag: 'w', encoding: 'utf8' });
    const read = await new UsageLedger(folder, silentLogger).read();
    assert.equal(read.entries.length, 1);
    assert.equal(read.skipped, 2);
  });

  test('two windows appending to one ledger at once lose no turn and tear no line', async (t) => {
    const folder = join(tempWorkspace(t), 'usage');
    const windows = [new UsageLedger(folder, silentLogger), new UsageLedger(folder, silentLogger)];
    for (let index = 0; index < 400; index++) windows[index % 2]?.record(entry('2026-12-07', { conversation: `c${index}` }));
    await Promise.all(windows.map((window) => window.flushed()));
    const read = await windows[0]!.read();
    assert.equal(read.skipped, 0);
    assert.deepEqual(new Set(read.entries.map((turn) => turn.conversation)), new Set(Array.from({ length: 400 }, (_, index) => `c${index}`)));
  });

  test('months older than two years are removed when the ledger opens; a full month takes no more turns and says so once', async (t) => {
    const folder = join(tempWorkspace(t), 'usage');
    const ledger = new UsageLedger(folder, silentLogger, () => new Date(2026, 11, 7));
    for (const day of ['2024-12-31', '2025-01-01', '2026-12-07']) ledger.record(entry(day));
    await ledger.flushed();
    await ledger.prune();
    assert.deepEqual(readdirSync(folder).sort(), ['usage-2025-01.jsonl', 'usage-2026-12.jsonl']);

    const { warnings, logger } = recordingLogger();
    const full = new UsageLedger(folder, logger);
    truncateSync(join(folder, 'usage-2025-01.jsonl'), LEDGER_MONTH_MAX_BYTES);
    full.record(entry('2025-01-02'));
    full.record(entry('2025-01-03'));
    full.record(entry('2026-12-08'));
    await full.flushed();
    assert.equal(warnings.filter((warning) => /2025-01 is full/.test(warning)).length, 1);
    assert.deepEqual(readFileSync(join(folder, 'usage-2026-12.jsonl'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as UsageEntry).day), ['2026-12-07', '2026-12-08']);
  });

  test('a ledger that was never written reads as empty', async (t) => {
    const folder = join(tempWorkspace(t), 'never');
    assert.deepEqual(await new UsageLedger(folder, silentLogger).read(), { entries: [], skipped: 0 });
    assert.equal(existsSync(folder), false);
  });

  test('the day is the user\'s calendar day', () => {
    assert.equal(localDay(new Date(2026, 0, 5, 23, 59)), '2026-01-05');
  });
});

describe('usage as CSV', () => {
  test('a header, one row per turn, empty cells for what the agent did not report, quoted commas, and no formula a spreadsheet would run', () => {
    const csv = usageCsv([
      entry('2026-12-07'),
      entry('2026-12-07', { project: '/work/a, "b"', model: '=HYPERLINK("http://x")', agent: 'gemini', cost: null, currency: null, inputTokens: null, outputTokens: null, totalTokens: null }),
    ]);
    assert.equal(csv, [
      'at,day,project,agent,agentLabel,model,conversation,sessionId,stopReason,inputTokens,outputTokens,totalTokens,cost,currency',
      '2026-12-07T12:00:00.000Z,2026-12-07,/work/shop,claude,Claude Code,Sonnet,session-1,s-1,end_turn,1200,300,1500,0.15,USD',
      '2026-12-07T12:00:00.000Z,2026-12-07,"/work/a, ""b""",gemini,Claude Code,"\'=HYPERLINK(""http://x"")",session-1,s-1,end_turn,,,,,',
      '',
    ].join('\n'));
  });
});

describe('spend for budgets', () => {
  test('the spend since a day counts what the files held and what this window wrote since, each once, in one currency', async (t) => {
    const folder = join(tempWorkspace(t), 'usage');
    const other = new UsageLedger(folder, silentLogger);
    other.record(entry('2026-12-01', { cost: 1 }));
    other.record(entry('2026-12-07', { cost: 2 }));
    other.record(entry('2026-12-07', { cost: 5, currency: 'EUR' }));
    await other.flushed();
    const ledger = new UsageLedger(folder, silentLogger);
    ledger.record(entry('2026-12-07', { cost: 0.5 }));
    assert.equal(await ledger.spentSince('2026-12-07', 'USD'), 2.5);
    ledger.record(entry('2026-12-07', { cost: 0.25 }));
    assert.equal(await ledger.spentSince('2026-12-07', 'USD'), 2.75);
    assert.equal(await ledger.spentSince('2026-12-01', 'USD'), 3.75, 'an earlier start reads the files again');
    assert.equal(await ledger.spentSince('2026-12-07', 'EUR'), 5);
    assert.equal((await ledger.read()).entries.length, 5);
  });
});
