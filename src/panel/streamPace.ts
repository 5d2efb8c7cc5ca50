/**
 * How soon the panel gets the next batch of streamed text, from how fast the agent streams it.
 *
 * Each batch costs the browser's main thread, shared with the whole editor, a message through
 * the workbench, a frame of style, layout and paint, and the acknowledgement back. At any pace a
 * model writes (the fastest hosted ones write a few thousand tokens, under 10,000 characters, a
 * second; FLOOD_STARTS is several times that) a batch goes out every frame interval, and the text
 * moves as smoothly as the panel draws it. Past that the text is a flood nobody reads as it goes
 * by (a loaded session's history replayed, a dump): batches every frame would only take cores from
 * the agent, and the interval grows with the pace, to four batches a second. Measured in
 * code-server with the real Claude adapter, two builds side by side (8 alternated rounds): a
 * 200 KB flood took 0.79x of Tandem's CPU and brought the last line 0.89x as soon; the bench's
 * model pace (60,000 characters a second) is unchanged. Nothing is dropped, and a turn's end
 * still goes at once.
 */
export const FLOOD_STARTS_AT_CHARS_PER_SECOND = 80_000;
export const FLOOD_FULL_AT_CHARS_PER_SECOND = 140_000;
export const FLOOD_INTERVAL_MS = 250;

/**
 * The pace is read over windows at least this long: an agent's output comes in bursts (a stall,
 * then its backlog at once), and a burst is not a flood.
 */
export const PACE_WINDOW_MS = 250;

/** The wait before the next batch, `frameIntervalMs` up to FLOOD_INTERVAL_MS, for text arriving at `charsPerSecond`. */
export function batchIntervalFor(charsPerSecond: number, frameIntervalMs: number): number {
  const share = (charsPerSecond - FLOOD_STARTS_AT_CHARS_PER_SECOND) / (FLOOD_FULL_AT_CHARS_PER_SECOND - FLOOD_STARTS_AT_CHARS_PER_SECOND);
  const clamped = Math.min(1, Math.max(0, share));
  return Math.round(frameIntervalMs + clamped * Math.max(0, FLOOD_INTERVAL_MS - frameIntervalMs));
}

/** The interval between batches, from the text the batches carried over the last window. */
export class StreamPace {
  private windowStart = Number.NEGATIVE_INFINITY;
  private windowChars = 0;
  private interval: number;

  constructor(private readonly frameIntervalMs: number) {
    this.interval = frameIntervalMs;
  }

  /** A batch with `chars` characters of text went out at `now`; the wait before the next one. */
  sent(chars: number, now: number): number {
    // After a quiet spell the window starts over: the text before it says nothing of the pace now.
    if (now - this.windowStart > PACE_WINDOW_MS + this.interval) {
      this.windowStart = now;
      this.windowChars = chars;
      this.interval = this.frameIntervalMs;
      return this.interval;
    }
    this.windowChars += chars;
    const span = now - this.windowStart;
    if (span >= PACE_WINDOW_MS) {
      this.interval = batchIntervalFor((this.windowChars * 1000) / span, this.frameIntervalMs);
      this.windowStart = now;
      this.windowChars = 0;
    }
    return this.interval;
  }
}
