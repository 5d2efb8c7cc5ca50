import { BoundedLog } from '../util/ringBuffer';
import { RedactedFrames } from '../redaction/redactedFrames';
import type { Frame, FrameDirection, FrameListener } from '../wire/frame';

/** What a frame counts for against a store's byte budget. */
const frameBytes = (frame: Frame) => frame.text.length + 32;

/**
 * Every raw line both ways, newest kept within a count and byte budget, and each one redacted
 * once while the traffic pauses (see `RedactedFrames`).
 */
export class FrameStore {
  private readonly log: BoundedLog<Frame>;
  private readonly listeners = new Set<FrameListener>();
  private readonly redaction: RedactedFrames;

  constructor(maxFrames = 20_000, maxBytes = 16 * 1024 * 1024) {
    this.log = new BoundedLog<Frame>(maxFrames, maxBytes, frameBytes);
    this.redaction = new RedactedFrames(maxFrames, (frame) => frameBytes(frame) <= maxBytes);
  }

  record(frame: Frame): void {
    this.log.push(frame);
    this.redaction.add(frame);
    for (const listener of this.listeners) listener(frame);
  }

  /**
   * Frames of this store (all, or a conversation's, in order) as the traffic log shows them;
   * null when one of them left the store before it was redacted.
   */
  redacted(frames: readonly Frame[]): Promise<Frame[] | null> {
    return this.redaction.redacted(frames);
  }

  dispose(): void {
    this.redaction.dispose();
    this.listeners.clear();
  }

  frames(): Frame[] {
    return this.log.toArray();
  }

  get dropped(): number {
    return this.log.dropped;
  }

  onFrame(listener: FrameListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

let connectionsOpened = 0;

/** A number for a new connection's frames, told apart from every other connection of this window. */
export function nextConnectionNumber(): number {
  return ++connectionsOpened;
}

/**
 * Reports each complete line of a byte stream as a frame, fed chunk by chunk and synchronously:
 * it sits between the process pipes and the SDK, so frames are seen exactly as sent, before any
 * validation. `connection` (from `nextConnectionNumber`) is stamped on each frame.
 */
export class LineFrames {
  private readonly decoder = new TextDecoder();
  // A long line arrives in many chunks: only each new chunk is searched for its end, and the
  // parts are joined once, so a line costs time in proportion to its size.
  private parts: string[] = [];

  constructor(private readonly direction: FrameDirection, private readonly onFrame: FrameListener, private readonly connection?: number) {}

  /**
   * Reports the lines `chunk` completes, and returns their text (before a `\r` is cut off, blank
   * lines included), one for each newline byte in it, so a reader of the same bytes need not
   * decode them again.
   */
  take(chunk: Uint8Array): string[] {
    return this.split(this.decoder.decode(chunk, { stream: true }), Date.now());
  }

  /** The stream ended: a last line without its newline is a frame too. */
  end(): void {
    const at = Date.now();
    this.split(this.decoder.decode(), at);
    if (this.parts.length > 0) this.emit(at);
  }

  /** `at`: when the read arrived; every line it completes arrived then. */
  private split(text: string, at: number): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      this.parts.push(text.slice(start, newline));
      lines.push(this.emit(at));
      start = newline + 1;
    }
    if (start < text.length) this.parts.push(start === 0 ? text : text.slice(start));
    return lines;
  }

  private emit(at: number): string {
    const { parts, direction, connection } = this;
    const text = parts.length === 1 ? (parts[0] as string) : parts.join('');
    this.parts = [];
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim().length > 0) this.onFrame(connection === undefined ? { at, direction, text: line } : { at, direction, text: line, connection });
    return text;
  }
}

/** `LineFrames` as a pass-through byte stream, for a direction written through web streams. */
export function lineTee(direction: FrameDirection, onFrame: FrameListener, connection?: number): TransformStream<Uint8Array, Uint8Array> {
  const frames = new LineFrames(direction, onFrame, connection);
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // Reported before it is passed on: the write to the agent can be synchronous, and its
      // answer must never be recorded ahead of the request.
      frames.take(chunk);
      controller.enqueue(chunk);
    },
    flush() {
      frames.end();
    },
  });
}
