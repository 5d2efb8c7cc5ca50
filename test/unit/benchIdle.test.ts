import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { untilIdle } from '../../bench/shared/processCpu';

/** A CPU counter that grows by each of `steps` in turn at every read, then stays; it counts its reads. */
function counter(steps: number[]): { read: () => number; reads: () => number } {
  let total = 0;
  let reads = 0;
  return {
    read: () => {
      total += steps[reads++] ?? 0;
      return total;
    },
    reads: () => reads,
  };
}

describe('waiting for the benches\' processes to be at rest', () => {
  test('goes ahead after the first window in which they used at most the allowance', async () => {
    const cpu = counter([0, 80, 60, 10]);
    const wait = await untilIdle(cpu.read, { windowMs: 20, busyMs: 10, limitMs: 5_000 });
    assert.equal(wait.idle, true);
    assert.equal(cpu.reads(), 4, 'one read before the first window and one after each of three: the third was quiet');
    // Timers may fire a millisecond early by Date.now()'s rounding, so the wall time is only bounded loosely.
    assert.ok(wait.waitedMs >= 55 && wait.waitedMs < 1_000, `three windows of 20 ms: ${wait.waitedMs} ms`);
  });

  test('gives up at the limit and says the processes were still busy', async () => {
    const wait = await untilIdle(() => Date.now(), { windowMs: 20, busyMs: 10, limitMs: 100 });
    assert.equal(wait.idle, false);
    assert.ok(wait.waitedMs >= 100, `waited up to the limit: ${wait.waitedMs} ms`);
  });

  test('without /proc it does not wait and does not claim rest', async () => {
    const wait = await untilIdle(() => null);
    assert.equal(wait.idle, false);
    assert.ok(wait.waitedMs < 50, `no window waited: ${wait.waitedMs} ms`);
  });
});
