import type { Disposable } from '../util/disposable';
import { FrameRedactor } from './frameRedaction';
import { LARGE_FRAME_CHARS } from './largeFrameRedaction';
import type { Frame } from '../wire/frame';
import { nextTurn, SLICE_MS } from './redactionSlices';

/** Redaction waits for a pause in the traffic this long: while an agent streams, the host has better things to do. */
const IDLE_MS = 300;

/**
 * The frames of a store redacted once each, by one redactor in the order they arrived (as the
 * traffic log reads them), in short slices while the traffic pauses. Exports, recordings and
 * the inspector's search take the texts from here instead of redacting a long conversation
 * again each time; asking for them catches up on whatever arrived since.
 */
export class RedactedFrames implements Disposable {
  private readonly redactor = new FrameRedactor();
  private readonly texts = new WeakMap<Frame, string>();
  /** Recorded, not yet given to the redactor. */
  private waiting: Frame[] = [];
  private head = 0;
  /** Given to the redactor and not yet shown by it (it holds streamed text that ends inside a word), oldest first. */
  private readonly held: Frame[] = [];
  private arrivals = 0;
  private arrivalsSeen = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private draining: Promise<void> | null = null;
  /** When the running slice of redaction is used up. */
  private sliceEnd = 0;
  /** Callers waiting in `redacted()`: while there are any, redaction goes on through traffic. */
  private askers = 0;
  private disposed = false;

  /**
   * `maxWaiting`: the store's own bound; older waiting frames have left the store and are skipped.
   * `holdable`: false for a frame larger than the store's whole byte budget, which left it the
   * moment it came. It is never asked for, and redacting it (a 32 MB line over the SDK's limit
   * takes seconds) would hold the host up when the traffic pauses.
   */
  constructor(private readonly maxWaiting: number, private readonly holdable: (frame: Frame) => boolean = () => true) {}

  /** On the hot path of every frame: it only queues the frame. */
  add(frame: Frame): void {
    this.waiting.push(frame);
    this.arrivals++;
    if (this.waiting.length - this.head > this.maxWaiting) {
      this.head++;
      this.compact();
    }
    this.arm();
  }

  /**
   * `frames`, taken from the store in order, as redacted text; null when one of them never went
   * through this redaction (it was dropped before its turn, or is not the store's).
   */
  async redacted(frames: readonly Frame[]): Promise<Frame[] | null> {
    this.askers++;
    try {
      // A redaction started in a pause may have stopped for traffic just before this call.
      do await this.settle();
      while (this.head < this.waiting.length && !this.disposed);
    } finally {
      this.askers--;
    }
    const preview = new Map<Frame, string>();
    this.redactor.preview().forEach((shown, index) => {
      const original = this.held[index];
      if (original) preview.set(original, shown.text);
    });
    const out: Frame[] = [];
    for (const frame of frames) {
      const text = this.texts.get(frame) ?? preview.get(frame);
      if (text === undefined) return null;
      out.push(text === frame.text ? frame : { ...frame, text });
    }
    return out;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = [];
    this.head = 0;
  }

  /** Every frame recorded so far through the redactor, in slices. */
  private settle(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  /**
   * Started in a pause, it stops at the end of a slice once the traffic has resumed (unless
   * someone asks for the texts) and goes on in the next pause: an agent that streams again gets
   * the host, instead of the previous turn's redaction taking it while the answer comes.
   */
  private async drain(): Promise<void> {
    this.sliceEnd = performance.now() + SLICE_MS;
    const arrivalsAtStart = this.arrivals;
    while (this.head < this.waiting.length && !this.disposed) {
      const frame = this.waiting[this.head++] as Frame;
      if (this.holdable(frame)) {
        this.held.push(frame);
        if (frame.text.length <= LARGE_FRAME_CHARS) this.shown(this.redactor.push(frame));
        else if (!(await this.stepThrough(this.redactor.steps(frame)))) return;
      }
      if (performance.now() >= this.sliceEnd) {
        this.compact();
        if (this.askers === 0 && this.arrivals !== arrivalsAtStart) return this.arm();
        await this.nextSlice();
      }
    }
    this.compact();
  }

  /** A large frame's steps; the host gets its turn between them as between frames. False when disposed on the way. */
  private async stepThrough(steps: Generator<void, Frame[]>): Promise<boolean> {
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        this.shown(step.value);
        return true;
      }
      if (performance.now() >= this.sliceEnd) await this.nextSlice();
      if (this.disposed) return false;
    }
  }

  private async nextSlice(): Promise<void> {
    await nextTurn();
    this.sliceEnd = performance.now() + SLICE_MS;
  }

  /** The redactor shows frames in the order it took them: each one shown is the oldest held. */
  private shown(frames: readonly Frame[]): void {
    for (const shown of frames) {
      const original = this.held.shift();
      if (original) this.texts.set(original, shown.text === original.text ? original.text : shown.text);
    }
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
  }

  /** Checks for a pause now and then rather than re-arming a timer per frame. */
  private arm(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.arrivals !== this.arrivalsSeen) {
        this.arrivalsSeen = this.arrivals;
        this.arm();
      } else void this.settle();
    }, IDLE_MS);
    this.timer.unref?.();
  }
}
