import type { FrameRedactor } from './frameRedaction';
import type { Frame } from '../wire/frame';

/** How long redaction runs before it lets the host handle anything else. */
export const SLICE_MS = 12;

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock for whoever redacts many frames, or one large one, on the extension host: `turn()`
 * gives the host a turn once the current slice has run SLICE_MS, so no view of the traffic
 * (the channel, an export, the inspector) holds the editor up however long the conversation.
 */
export class RedactionSlices {
  private end = performance.now() + SLICE_MS;

  async turn(): Promise<void> {
    if (performance.now() < this.end) return;
    await nextTurn();
    this.end = performance.now() + SLICE_MS;
  }
}

/** `redactor.push(frame)`, a large frame's steps spread over slices. */
export async function pushInSlices(redactor: FrameRedactor, frame: Frame, slices: RedactionSlices): Promise<Frame[]> {
  const steps = redactor.steps(frame);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await slices.turn();
  }
}
