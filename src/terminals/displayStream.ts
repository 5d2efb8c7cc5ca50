import { StringDecoder } from 'node:string_decoder';
import { CoalescedTask } from '../util/coalescedTask';
import type { Disposable } from '../util/disposable';
import { isContinuation } from './outputBuffer';

/** Output is handed to the display at most this often: it draws at a lower rate anyway. */
const BATCH_MS = 16;
/**
 * Bytes of one batch that are decoded for the display: four per character covers the most a
 * display keeps (see TerminalDisplays), whatever the script. Older bytes of the same batch
 * would be decoded only to be dropped again.
 */
export const DISPLAY_BYTES = 4 * 256 * 1024;

/**
 * A command's output on its way to its display: read in batches, and of a batch larger than
 * the display can keep only the newest bytes are decoded. A flood of output (a build log, a
 * `cat` of a large file) then costs the host about the pipe's own price; the agent's buffer,
 * which gets every byte, is fed separately.
 */
export class DisplayStream implements Disposable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes dropped before decoding since the last batch. */
  private skipped = 0;
  private decoder = new StringDecoder('utf8');
  private readonly batch = new CoalescedTask(BATCH_MS, () => this.flush());

  /** `skipped` counts what never reached `text`: characters, or bytes of output never decoded. */
  constructor(private readonly show: (text: string, skipped: number) => void, private readonly keepBytes = DISPLAY_BYTES) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // Whole reads are dropped: cheap, and memory stays within the budget plus one read.
    while (this.pending.length > 1 && this.pendingBytes - (this.pending[0] as Buffer).length >= this.keepBytes) {
      const first = this.pending.shift() as Buffer;
      this.pendingBytes -= first.length;
      this.skipped += first.length;
    }
    this.batch.schedule();
  }

  /** Hands on what is pending now; a character whose bytes have not all come waits for them. */
  flush(): void {
    this.batch.cancel();
    if (this.pending.length === 0) return;
    let bytes = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.skipped > 0) {
      // The character cut in two by the drop is skipped whole, and the decoder forgets its half.
      let start = 0;
      while (start < bytes.length && start < 3 && isContinuation(bytes[start] as number)) start++;
      bytes = bytes.subarray(start);
      this.skipped += start;
      this.decoder = new StringDecoder('utf8');
    }
    const skipped = this.skipped;
    this.skipped = 0;
    this.show(this.decoder.write(bytes), skipped);
  }

  /** The command's output ended: everything pending is shown, an incomplete last character too. */
  end(): void {
    this.flush();
    const rest = this.decoder.end();
    if (rest) this.show(rest, 0);
  }

  dispose(): void {
    this.batch.dispose();
    this.pending = [];
  }
}
