import { performance } from 'node:perf_hooks';

/**
 * What `run` gave, the longest time the event loop did not get a turn while it went on, and how
 * many turns it got before `run` ended (0 for work done in one go).
 */
export async function longestBlock<T>(run: () => Promise<T>): Promise<{ result: T; longest: number; turns: number }> {
  let last = performance.now();
  let longest = 0;
  let turns = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) {
      turns++;
      setImmediate(tick);
    }
  };
  setImmediate(tick);
  const result = await run();
  running = false;
  // The turn after the end: a run that never let the loop turn is measured too.
  await new Promise((resolve) => setImmediate(resolve));
  return { result, longest, turns };
}
