import type { Frame } from '../wire/frame';
import { FrameRedactor } from './frameRedaction';
import { pushInSlices, RedactionSlices } from './redactionSlices';

/** Frames redacted as the traffic log shows them, in their order. */
export type Redaction = (frames: readonly Frame[]) => Promise<Frame[]>;

/**
 * The traffic log's redaction over every frame (nothing held back at the end), in slices of
 * time: neither a long conversation nor one large frame stalls the host. The same frames come
 * out, in order.
 */
export async function redactInSlices(frames: readonly Frame[]): Promise<Frame[]> {
  const redactor = new FrameRedactor();
  const slices = new RedactionSlices();
  const out: Frame[] = [];
  for (const frame of frames) {
    out.push(...await pushInSlices(redactor, frame, slices));
    await slices.turn();
  }
  out.push(...redactor.releaseStale(Number.POSITIVE_INFINITY));
  return out;
}

/**
 * Frames of `store` as it redacted them (once each, as they came); afresh, as above, when some
 * left the store before their turn.
 */
export function storeRedaction(store: { redacted(frames: readonly Frame[]): Promise<Frame[] | null> }): Redaction {
  return async (frames) => (await store.redacted(frames)) ?? redactInSlices(frames);
}
