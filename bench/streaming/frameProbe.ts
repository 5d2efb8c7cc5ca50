/**
 * Animation-frame gaps measured inside a page or frame while something streams into it: a
 * requestAnimationFrame loop records the time between frames, a PerformanceObserver counts long
 * tasks. Evaluated through Playwright; nothing of it is in the shipped code.
 */
import type { Frame, Page } from 'playwright-core';
import { lastLineInView } from '../../test/support/longAnswer';
import { percentile } from '../shared/stats';

export interface FrameGaps {
  maxFrameMs: number;
  p99FrameMs: number;
  framesOver50: number;
  longTasks: number;
  /**
   * What the browser says held each frame over 50 ms (Long Animation Frames API, where the
   * browser has it): its time in script (and in Tandem's panel's scripts, animation-frame
   * callbacks included), and in style, layout and paint after them.
   */
  longFrames: { ms: number; scriptMs: number; panelScriptMs: number; renderMs: number }[];
}

/** Starts the probe in `target` (a page, or a frame such as the panel's webview). */
export async function startFrameProbe(target: Page | Frame): Promise<void> {
  // A string, not a function: the TypeScript loader would add helpers the page does not have.
  await target.evaluate(`(() => {
    const state = { deltas: [], longTasks: 0, running: true, last: performance.now() };
    window.__frameProbe = state;
    new PerformanceObserver((list) => { state.longTasks += list.getEntries().length; }).observe({ type: 'longtask', buffered: false });
    state.longFrames = [];
    if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
      new PerformanceObserver((list) => {
        for (const frame of list.getEntries()) {
          const scriptMs = (frame.scripts || []).reduce((sum, script) => sum + script.duration, 0);
          const panel = (script) => /[/]dist[/](webview[.]js|chunks[/])/.test(script.sourceURL) || String(script.sourceURL).startsWith('http://tandem.panel/');
          const panelScriptMs = (frame.scripts || []).filter(panel).reduce((sum, script) => sum + script.duration, 0);
          state.longFrames.push({ ms: frame.duration, scriptMs, panelScriptMs, renderMs: frame.styleAndLayoutStart > 0 ? frame.startTime + frame.duration - frame.styleAndLayoutStart : 0 });
        }
      }).observe({ type: 'long-animation-frame', buffered: false });
    }
    const tick = (now) => {
      state.deltas.push(now - state.last);
      state.last = now;
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

/** Stops the probe started in `target` and summarizes what it saw. */
export async function stopFrameProbe(target: Page | Frame): Promise<FrameGaps> {
  const { deltas, longTasks, longFrames } = await target.evaluate(`(() => {
    const state = window.__frameProbe;
    state.running = false;
    return { deltas: state.deltas.slice(1), longTasks: state.longTasks, longFrames: state.longFrames };
  })()`) as { deltas: number[]; longTasks: number; longFrames: FrameGaps['longFrames'] };
  return {
    maxFrameMs: Math.max(0, ...deltas),
    p99FrameMs: deltas.length > 0 ? percentile(deltas, 99) : 0,
    framesOver50: deltas.filter((delta) => delta > 50).length,
    longTasks,
    longFrames,
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

/** How long after the last line reached the document it must be in view (the view follows in the frame that draws it). */
const IN_VIEW_TIMEOUT_MS = 2_000;

/** Fails the turn unless the answer's last line (holding `marker`) comes into view in `frame` soon after reaching its document. */
export async function expectLastLineInView(frame: Pick<Frame, 'waitForFunction'>, marker: string): Promise<void> {
  await frame.waitForFunction(lastLineInView, marker, { timeout: IN_VIEW_TIMEOUT_MS }).catch(() => {
    throw new Error(`the answer's last line is in the panel's document but not in view ${IN_VIEW_TIMEOUT_MS} ms later: the panel did not follow it, and the time would flatter`);
  });
}
