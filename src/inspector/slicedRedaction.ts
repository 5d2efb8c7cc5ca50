import type { Frame, FrameStore } from '../acp/frames';
import { FrameRedactor } from '../acp/frameRedaction';

/** Frames redacted as the traffic log shows them, in their order. */
export type Redaction = (frames: readonly Frame[]) => Promise<Frame[]>;

/** Frames redacted between two looks at the event loop: a long conversation never stalls the host. */
const SLICE = 500;

/** The traffic log's redaction over every frame (nothing held back at the end), in slices; the same frames come out, in order. */
export async function redactInSlices(frames: readonly Frame[]): Promise<Frame[]> {
  const redactor = new FrameRedactor();
  const out: Frame[] = [];
  for (let start = 0; start < frames.length; start += SLICE) {
    for (const frame of frames.slice(start, start + SLICE)) out.push(...redactor.push(frame));
    await new Promise((resolve) => setImmediate(resolve));
  }
  out.push(...redactor.releaseStale(Number.POSITIVE_INFINITY));
  return out;
}

/**
 * Frames of `store` as it redacted them (once each, as they came); afresh, as above, when some
 * left the store before their turn.
 */
export function storeRedaction(store: FrameStore): Redaction {
  return async (frames) => (await store.redacted(frames)) ?? redactInSlices(frames);
}
