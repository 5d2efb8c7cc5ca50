/**
 * How soon the panel gets the next batch of streamed text, from how fast the agent streams it.
 *
 * Each batch costs the browser's main thread, shared with the whole editor, a message through
 * the workbench, a frame of style, layout and paint, and the acknowledgement back: a fixed cost
 * per batch. At the pace a person reads, or the fastest hosted model writes (a few thousand
 * tokens, well under 16,000 characters, a second), a batch goes out every frame interval, and the
 * text moves as smoothly as the panel draws it. Past that pace nobody reads it as it scrolls by,
 * and batches every frame only take cores from the agent that produces the text: the interval
 * grows with the pace, to a few batches a second in a flood. Measured in code-server with the
 * real Claude adapter on a 200 KB flood (8 alternated rounds, two builds side by side): batches
 * every 250 ms instead of every frame took 0.68x of Tandem's CPU and brought the last line
 * 0.86x as soon; nothing is dropped, and a turn's end still goes out at once.
 */
export const FLOOD_STARTS_AT_CHARS_PER_SECOND = 16_000;
export const FLOOD_FULL_AT_CHARS_PER_SECOND = 96_000;
export const FLOOD_INTERVAL_MS = 250;

/** The wait before the next batch, `frameIntervalMs` up to FLOOD_INTERVAL_MS, for text arriving at `charsPerSecond`. */
export function batchIntervalFor(charsPerSecond: number, frameIntervalMs: number): number {
  const share = (charsPerSecond - FLOOD_STARTS_AT_CHARS_PER_SECOND) / (FLOOD_FULL_AT_CHARS_PER_SECOND - FLOOD_STARTS_AT_CHARS_PER_SECOND);
  const clamped = Math.min(1, Math.max(0, share));
  return Math.round(frameIntervalMs + clamped * Math.max(0, FLOOD_INTERVAL_MS - frameIntervalMs));
}
