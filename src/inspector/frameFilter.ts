import type { Frame, FrameDirection } from '../wire/frame';
import type { FrameIndex, IndexedFrame } from './frameIndex';

/** What the inspector shows; every field left null lets every frame through. */
export interface FrameFilter {
  direction: FrameDirection | null;
  method: string | null;
  toolCallId: string | null;
  /** Only the frames of one connection (agent process). */
  connection: number | null;
  /** Case-insensitive, over the frame's (redacted) text. */
  text: string | null;
  /** Only frames that were malformed, dropped, salvaged or of an unknown kind. */
  markedOnly: boolean;
}

export const NO_FILTER: FrameFilter = { direction: null, method: null, toolCallId: null, connection: null, text: null, markedOnly: false };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function matchesFields(frame: IndexedFrame, filter: FrameFilter): boolean {
  if (filter.direction !== null && frame.direction !== filter.direction) return false;
  if (filter.method !== null && frame.method !== filter.method) return false;
  if (filter.connection !== null && frame.connection !== filter.connection) return false;
  return !filter.markedOnly || frame.mark !== null;
}

/**
 * The positions of the frames that pass, in order, in one pass. A tool call's frames come from
 * its index instead of a scan; `texts` are the lines as shown (redacted), so a search never
 * finds what the user cannot see.
 */
export function filterFrames(index: FrameIndex, texts: readonly Frame[], filter: FrameFilter): number[] {
  const candidates = filter.toolCallId === null ? null : (index.byToolCall.get(filter.toolCallId) ?? []);
  const search = filter.text ? new RegExp(escapeRegExp(filter.text), 'i') : null;
  const passes = (frame: IndexedFrame | undefined): frame is IndexedFrame =>
    frame !== undefined && matchesFields(frame, filter) && (search === null || search.test(texts[frame.index]?.text ?? ''));
  if (candidates) return candidates.filter((position) => passes(index.frames[position]));
  const out: number[] = [];
  for (const frame of index.frames) if (passes(frame)) out.push(frame.index);
  return out;
}
