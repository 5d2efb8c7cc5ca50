import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairedRatios, single, STABLE_KEYS, stableFigures } from '../../bench/shared/figures';
import { stableTable } from '../../bench/shared/report';

test('a side-by-side ratio is taken round by round, not as a ratio of medians', () => {
  // Medians 20 / 10 would say 2x; the rounds themselves were 1x, 4x and 1.5x.
  const ratio = pairedRatios([10, 40, 30], [10, 10, 20]);
  assert.deepEqual(ratio, { value: 1.5, unit: 'x', runs: 3, min: 1, median: 1.5, max: 4 });
  assert.throws(() => pairedRatios([1, 2], [1]), /same non-zero number of runs/);
});

test('every stable key is in the JSON figures and the table, measured or marked as not measured', () => {
  const figures = { 'hostIngest.pipeVsRaw': pairedRatios([105, 115], [100, 100]), 'bundles.webviewBytes': single(512_000, 'bytes'), 'hostIngest.pipeVsRawCpu': single(1, 'x') };
  const stable = stableFigures(figures);
  assert.deepEqual(Object.keys(stable), [...STABLE_KEYS]);
  assert.equal(stable['hostIngest.pipeVsRaw']?.value, 1.1);
  assert.equal(stable['fsRead.vsEcho'], null);
  const rows = stableTable(figures).split('\n');
  assert.equal(rows.length, STABLE_KEYS.length + 2, 'a header, a rule and one row per key');
  assert.match(rows.find((row) => row.startsWith('hostIngest.pipeVsRaw ')) ?? '', /1\.10x\s+1\.05x\.\.1\.15x \(2 runs\)/);
  assert.match(rows.find((row) => row.startsWith('bundles.webviewBytes ')) ?? '', /512,000 bytes/);
  assert.match(rows.find((row) => row.startsWith('fsRead.vsEcho ')) ?? '', /not measured in this run/);
});
