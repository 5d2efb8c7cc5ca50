/**
 * Animation-frame gaps measured inside a page or frame while something streams into it: a
 * requestAnimationFrame loop records the time between frames, a PerformanceObserver counts long
 * tasks. Evaluated through Playwright; nothing of it is in the shipped code.
 */
import type { Frame, Page } from 'playwright-core';
import { percentile } from './stats';

export interface FrameGaps {
  maxFrameMs: number;
  p99FrameMs: number;
  framesOver50: number;
  longTasks: number;
  /** The longest frames, longest first: when each ended (ms after the probe started) and how long it was. */
  longest: { endedAt: number; ms: number }[];
}

/** Starts the probe in `target` (a page, or a frame such as the panel's webview). */
export async function startFrameProbe(target: Page | Frame): Promise<void> {
  // A string, not a function: the TypeScript loader would add helpers the page does not have.
  await target.evaluate(`(() => {
    const state = { deltas: [], ends: [], longTasks: 0, running: true, started: performance.now(), last: performance.now() };
    window.__frameProbe = state;
    new PerformanceObserver((list) => { state.longTasks += list.getEntries().length; }).observe({ type: 'longtask', buffered: false });
    const tick = (now) => {
      state.deltas.push(now - state.last);
      state.ends.push(now - state.started);
      state.last = now;
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

/** Stops the probe started in `target` and summarizes what it saw. */
export async function stopFrameProbe(target: Page | Frame): Promise<FrameGaps> {
  const { deltas, ends, longTasks } = await target.evaluate(`(() => {
    const state = window.__frameProbe;
    state.running = false;
    return { deltas: state.deltas.slice(1), ends: state.ends.slice(1), longTasks: state.longTasks };
  })()`) as { deltas: number[]; ends: number[]; longTasks: number };
  return {
    maxFrameMs: Math.max(0, ...deltas),
    p99FrameMs: deltas.length > 0 ? percentile(deltas, 99) : 0,
    framesOver50: deltas.filter((delta) => delta > 50).length,
    longTasks,
    longest: deltas.map((delta, index) => ({ endedAt: ends[index] ?? 0, ms: delta })).sort((a, b) => b.ms - a.ms).slice(0, 5),
  };
}

/**
 * True once the newest agent message ends with `marker`, read from only its end (the streamed
 * tail and the block before it), so checking it every frame costs the same for any length of
 * answer. Runs in the panel's document: pass it to waitForFunction, or embed its source. It
 * declares no functions of its own, so its source has no helper the TypeScript loader adds.
 */
export function lastMessageEndsWith(marker: string): boolean {
  const messages = document.querySelectorAll('.agent-message');
  const last = messages[messages.length - 1];
  const tail = last?.querySelector('.md-tail');
  const end = tail ? `${tail.previousElementSibling?.textContent ?? ''}${tail.textContent ?? ''}` : (last?.textContent ?? '');
  return end.includes(marker);
}
