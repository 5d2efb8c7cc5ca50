import { recentContext, secretsOfPiece } from './pieceRedaction';
import { maskPieces } from './secrets';
import type { Frame } from '../wire/frame';
import { finished, LARGE_FRAME_CHARS, largeFrameText } from './largeFrameRedaction';
import { parseFrameText, redactFrameText, redactParsedFrame } from './redact';
import { StreamSlots, unrepeated, type StreamSlot } from './streamSlots';

const MAX_STREAMS = 64;
/** A piece held back this long (in text) is released even if its last word never ends. */
const MAX_HELD_CHARS = 16 * 1024;

/** A frame that carries pieces of streamed text (see `StreamSlots`). */
interface StreamedFrame {
  readonly frame: Frame;
  readonly message: unknown;
  readonly slots: readonly StreamSlot[];
  /** Its streams: frames are held together only while they continue the same ones. */
  readonly streams: string;
}

/**
 * Redacts frames in order for every view of the traffic (channel, inspector, exports). Streamed
 * text (message chunks, a terminal's output, a tool call's content) is redacted over the text of
 * its stream's consecutive pieces, not piece by piece: a piece that ends inside a word is held
 * back until the word ends in a later piece, another frame arrives, or the caller releases it as
 * stale, so neither half of a credential split at a piece boundary is shown. Frames come out in
 * the order they went in.
 */
export class FrameRedactor {
  private held: StreamedFrame[] = [];
  private heldChars = 0;
  private readonly contexts = new Map<string, string>();
  private readonly slots = new StreamSlots();

  /** The frames that can be shown now that `frame` arrived, redacted. */
  push(frame: Frame): Frame[] {
    return frame.text.length > LARGE_FRAME_CHARS ? finished(this.steps(frame)) : this.pushWhole(frame);
  }

  /**
   * `push` in steps, for a caller that lets the host do other work between them: a large
   * frame's long values are redacted a piece per step.
   */
  *steps(frame: Frame): Generator<void, Frame[]> {
    if (frame.text.length > LARGE_FRAME_CHARS) {
      // A streamed piece is read with the pieces around it instead.
      const text = yield* largeFrameText(frame.text, (message) => this.slots.slotsOf(frame, message).length === 0);
      if (text !== undefined) return [...this.release(), { ...frame, text }];
    }
    return this.pushWhole(frame);
  }

  private pushWhole(frame: Frame): Frame[] {
    const message = parseFrameText(frame.text);
    const streamed = message === undefined ? null : this.streamed(frame, message);
    const out = this.held.length > 0 && streamed?.streams !== this.held[0]?.streams ? this.release() : [];
    if (!streamed) {
      const text = message === undefined ? redactFrameText(frame.text) : redactParsedFrame(message, frame.text);
      return [...out, { ...frame, text }];
    }
    this.held.push(streamed);
    this.heldChars += streamed.slots.reduce((sum, slot) => sum + slot.text.length, 0);
    const wordOpen = streamed.slots.some((slot) => /\S$/.test(slot.text));
    return wordOpen && this.heldChars < MAX_HELD_CHARS ? out : [...out, ...this.release()];
  }

  private streamed(frame: Frame, message: unknown): StreamedFrame | null {
    this.slots.note(frame, message);
    const slots = this.slots.slotsOf(frame, message);
    this.slots.answered(frame, message);
    return slots.length === 0 ? null : { frame, message, slots, streams: slots.map((slot) => slot.stream).join('\u0001') };
  }

  get holding(): boolean {
    return this.held.length > 0;
  }

  /** Releases held pieces whose first frame is at or before `cutoff` (ms since the epoch). */
  releaseStale(cutoff: number): Frame[] {
    const first = this.held[0];
    return first && first.frame.at <= cutoff ? this.release() : [];
  }

  /**
   * What releasing the held pieces now would show, without releasing them: a look at the end of
   * a conversation whose stream may still go on.
   */
  preview(): Frame[] {
    return this.shown(this.held).frames;
  }

  /** Shows the held pieces; later pieces of their streams are read after them. */
  private release(): Frame[] {
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    const { frames, streamed } = this.shown(held);
    for (const [stream, text] of streamed) this.remember(stream, text);
    return frames;
  }

  /**
   * The frames with each stream's pieces redacted over the stream's text. When a stream's last
   * word is still open it may go on inside a credential, so whatever of that word could begin
   * one is masked as well.
   */
  private shown(held: readonly StreamedFrame[]): { frames: Frame[]; streamed: Map<string, string> } {
    const pieces = new Map<string, StreamSlot[]>();
    for (const slot of held.flatMap((each) => each.slots)) {
      const known = pieces.get(slot.stream);
      if (known) known.push(slot);
      else pieces.set(slot.stream, [slot]);
    }
    const masked = new Map<StreamSlot, string>();
    const streamed = new Map<string, string>();
    for (const [stream, slots] of pieces) {
      const known = this.contexts.get(stream) ?? '';
      const first = slots[0] as StreamSlot;
      const context = first.repeats ? unrepeated(known, first.text) : known;
      const texts = slots.map((slot) => slot.text);
      const text = context + texts.join('');
      maskPieces(texts, secretsOfPiece(text, true, context.length), '', context.length).forEach((shown, index) => masked.set(slots[index] as StreamSlot, shown));
      streamed.set(stream, text);
    }
    const frames = held.map(({ frame, message, slots }) => {
      // The parsed message is this redactor's own copy: the pieces are replaced in place.
      for (const slot of slots) slot.holder[slot.key] = masked.get(slot);
      const text = redactParsedFrame(message, frame.text);
      for (const slot of slots) slot.holder[slot.key] = slot.text;
      return { ...frame, text };
    });
    return { frames, streamed };
  }

  private remember(stream: string, streamed: string): void {
    this.contexts.delete(stream);
    this.contexts.set(stream, recentContext(streamed));
    if (this.contexts.size > MAX_STREAMS) this.contexts.delete(this.contexts.keys().next().value ?? stream);
  }
}

/** Every frame redacted, as the inspector and exports show them: nothing is held back at the end. */
export function redactFrames(frames: readonly Frame[]): Frame[] {
  const redactor = new FrameRedactor();
  return [...frames.flatMap((frame) => redactor.push(frame)), ...redactor.releaseStale(Number.POSITIVE_INFINITY)];
}
