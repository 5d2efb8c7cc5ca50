import * as acp from '@agentclientprotocol/sdk';
import { checkedSessionNotification } from './updateCheck';

const NEWLINE = 0x0a;
/** Longer lines are passed on to the SDK as they arrive instead of being held for a decision. */
const MAX_HELD_BYTES = 1024 * 1024;
const UPDATE_METHOD = acp.methods.client.session.update;
/** Only lines holding this are parsed here; an agent that escapes the slash just takes the SDK's path. */
const QUOTED_UPDATE_METHOD = `"${UPDATE_METHOD}"`;
/** Exists only between this stage and the SDK's dispatch: the frame tee sits before both. */
const CAUGHT_UP = '_tandem/sdk_caught_up';
const CAUGHT_UP_LINE = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: CAUGHT_UP })}\n`);

function joined(parts: Buffer[], bytes: number): Buffer {
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, bytes);
}

/** Exactly what the SDK's dispatch would hand its `session/update` router: a notification, not a request of that name. */
function updateParams(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const { jsonrpc, method, params } = message as Record<string, unknown>;
  return jsonrpc === '2.0' && method === UPDATE_METHOD && !('id' in message) ? params : null;
}

/** In stream order: bytes for the SDK, or an update taken here. */
type Item = Buffer | acp.SessionNotification;

/**
 * Takes `session/update` lines off the agent's byte stream before the SDK sees them. The SDK
 * validates every update twice against a schema that is a union of intersections (a router it
 * always installs, then the handler), which costs most of the host's time in a stream of
 * chunks. A line whose params pass `checkedSessionNotification` (the common shapes, exactly as
 * the SDK would pass them on) is delivered from here; every other line, updates included, goes
 * on to the SDK byte for byte, which frames, validates, cleans or drops it as it always did.
 *
 * Order is kept across both paths: an update taken here after bytes were passed on waits for
 * a marker line sent behind those bytes, whose handler is the SDK's last, so by then the SDK
 * has dispatched all of them; whatever comes after the waiting update waits behind it.
 */
export class UpdateFastPath {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** A line too long to hold is being passed on as it comes. */
  private passing = false;
  private passedSinceMarker = false;
  private awaitingMarker = false;
  private readonly queue: Item[] = [];
  private output: ((bytes: Uint8Array) => void) | null = null;
  private drained: (() => void) | null = null;
  private closed = false;

  constructor(private readonly deliver: (notification: acp.SessionNotification) => void) {}

  /** Registers the handler for the updates the SDK validates; call it first, where it always was. */
  registerFirst(app: acp.ClientApp): acp.ClientApp {
    return app.onNotification(acp.methods.client.session.update, (ctx) => this.deliver(ctx.params));
  }

  /** Registers the marker's handler; call it after every other, so the marker is dispatched last. */
  registerLast(app: acp.ClientApp): acp.ClientApp {
    return app.onNotification(CAUGHT_UP, { parse: () => undefined }, () => {
      this.awaitingMarker = false;
      this.drain();
    });
  }

  /** `pass` hands bytes on to the SDK's NDJSON framing. */
  start(pass: (bytes: Uint8Array) => void): void {
    this.output = pass;
  }

  /**
   * One read of the agent's output, with the text of each line it completes as the frame tee
   * decoded it (`LineFrames.take`), so each line is decoded once for both.
   */
  read(chunk: Buffer, lines: readonly string[]): void {
    const run: Buffer[] = [];
    let start = 0;
    let index = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      this.line(chunk, start, newline + 1, lines[index++] ?? '', run);
      start = newline + 1;
    }
    if (start < chunk.length) this.partial(chunk.subarray(start), run);
    this.pass(run);
  }

  /** Resolves once every update and byte held back has been handed on, or the connection ended. */
  end(): Promise<void> | undefined {
    // An unterminated last line is the SDK's to frame, as before.
    if (this.heldBytes > 0) this.pass(this.held);
    if (this.queue.length === 0 || this.closed) return undefined;
    return new Promise<void>((resolve) => {
      this.drained = resolve;
    });
  }

  /** The connection ended: nothing more is delivered, as the SDK dispatches nothing more. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.settle();
  }

  /** The line at `start..end` of `chunk` (its newline included), after whatever of it is held. */
  private line(chunk: Buffer, start: number, end: number, text: string, run: Buffer[]): void {
    if (this.passing) {
      this.passing = false;
      run.push(chunk.subarray(start, end));
      return;
    }
    const held = this.held;
    const bytes = this.heldBytes + end - start;
    this.held = [];
    this.heldBytes = 0;
    // However it arrived, a line too long to hold is the SDK's: its size limit applies.
    const notification = bytes > MAX_HELD_BYTES ? null : this.checked(text);
    if (!notification) {
      run.push(...held, chunk.subarray(start, end));
      return;
    }
    // The stream of chunks: nothing passed on or waiting, so nothing to keep order with.
    if (run.length === 0 && this.queue.length === 0 && !this.passedSinceMarker) {
      this.handOn(notification);
      return;
    }
    this.pass(run);
    this.queue.push(notification);
    this.drain();
  }

  private partial(tail: Buffer, run: Buffer[]): void {
    if (this.passing) {
      run.push(tail);
      return;
    }
    this.held.push(tail);
    this.heldBytes += tail.length;
    if (this.heldBytes <= MAX_HELD_BYTES) return;
    run.push(joined(this.held, this.heldBytes));
    this.held = [];
    this.heldBytes = 0;
    this.passing = true;
  }

  /** Queues the bytes collected in `run` for the SDK and empties it. */
  private pass(run: Buffer[]): void {
    if (run.length === 0) return;
    this.queue.push(joined(run, run.reduce((sum, part) => sum + part.length, 0)));
    run.length = 0;
    this.drain();
  }

  private drain(): void {
    while (!this.awaitingMarker && !this.closed && this.queue.length > 0) {
      const item = this.queue[0] as Item;
      if (Buffer.isBuffer(item)) {
        this.output?.(item);
        this.passedSinceMarker = true;
      } else if (this.passedSinceMarker) {
        this.output?.(CAUGHT_UP_LINE);
        this.passedSinceMarker = false;
        this.awaitingMarker = true;
        return;
      } else {
        this.handOn(item);
      }
      this.queue.shift();
    }
    if (this.queue.length === 0) this.settle();
  }

  private settle(): void {
    const drained = this.drained;
    this.drained = null;
    drained?.();
  }

  /**
   * The tee decoded `text` as the SDK decodes a line (bad bytes replaced), except that it keeps
   * a byte order mark at the start of a line after the first, which JSON.parse refuses: such a
   * line goes to the SDK, which drops the mark.
   */
  private checked(text: string): acp.SessionNotification | null {
    if (!text.includes(QUOTED_UPDATE_METHOD)) return null;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return null;
    }
    return checkedSessionNotification(updateParams(message));
  }

  private handOn(notification: acp.SessionNotification): void {
    if (this.closed) return;
    try {
      this.deliver(notification);
    } catch (error) {
      // What the SDK does with a notification handler that throws: report it and go on.
      // eslint-disable-next-line no-console -- the SDK reports these on the console; the same place for both paths
      console.error('Error handling notification', { method: acp.methods.client.session.update, message: error instanceof Error ? error.message : String(error) });
    }
  }
}
