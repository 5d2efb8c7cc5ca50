import type { FrameGaps } from './frameProbe';
import { single, type Figures } from '../shared/figures';
import type { Pace } from './rawAgent';
import { count, ms } from '../shared/report';

/**
 * What held the frames over 50 ms of all probed turns, as the browser attributes them (the
 * workbench page's Long Animation Frames, which include the webview's scripts): their time in
 * script, Tandem's panel's share of it, and in style, layout and paint. What is left is time
 * the thread spent on neither: waiting for a core, garbage collection and the browser's own
 * tasks.
 */
export function longFrameFigures(frames: FrameGaps['longFrames']): Figures {
  const sum = (pick: (frame: FrameGaps['longFrames'][number]) => number) => frames.reduce((total, frame) => total + pick(frame), 0);
  return {
    'longFrames.count': single(frames.length, 'count'),
    'longFrames.ms': single(sum((frame) => frame.ms), 'ms'),
    'longFrames.scriptMs': single(sum((frame) => frame.scriptMs), 'ms'),
    'longFrames.panelScriptMs': single(sum((frame) => frame.panelScriptMs), 'ms'),
    'longFrames.renderMs': single(sum((frame) => frame.renderMs), 'ms'),
  };
}

/** The frames over 50 ms in the probed turns and what the browser says held them. */
export function longFramesLine(figures: Figures, pace: Pace): string {
  const at = (name: string) => figures[`streaming.${pace.key}.longFrames.${name}`]?.value;
  const [frames, total, script, panel, render] = ['count', 'ms', 'scriptMs', 'panelScriptMs', 'renderMs'].map(at);
  if (frames === undefined || total === undefined || script === undefined || panel === undefined || render === undefined) return `   ${pace.label}: no long-frame attribution (the browser has no Long Animation Frames API).`;
  if (frames === 0) return `   ${pace.label}: no frame over 50 ms in the probed turns.`;
  return `   ${pace.label}: ${count(frames)} frames over 50 ms in the probed turns, ${ms(total)} in all: script ${ms(script)} (Tandem's panel ${ms(panel)}), `
    + `style, layout and paint ${ms(render)}, the rest ${ms(Math.max(0, total - script - render))} (the thread waiting for a core, garbage collection, the browser's own tasks).`;
}
