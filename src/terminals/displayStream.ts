import { StringDecoder } from 'node:string_decoder';
import { CoalescedTask } from '../util/coalescedTask';
import type { Disposable } from '../util/disposable';
import { isContinuation } from './outputBuffer';

/** Output is handed to the display at most this often: it draws at a lower rate anyway. */
const BATCH_MS = 16;
/**
 * Bytes of one batch kept for the display: four per character covers the most a display keeps
 * (see TerminalDisplays), whatever the script. Of those, only as many are decoded as give the
 * characters it keeps: older ones would be decoded only to be dropped again.
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
    const bytes = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const text = this.decodeKept(bytes);
    const skipped = this.skipped;
    this.skipped = 0;
    this.show(text, skipped);
  }

  /**
   * The newest bytes of a batch, decoded: as few as give more characters than the display
   * keeps (a quarter of `keepBytes`: a character takes at most four bytes). More than it keeps,
   * so every view cuts the text where it would have cut the whole batch.
   */
  private decodeKept(bytes: Buffer): string {
    const keepChars = Math.floor(this.keepBytes / 4);
    let take = keepChars + 1;
    while (take < bytes.length) {
      const decoder = new StringDecoder('utf8');
      const start = this.characterStart(bytes, bytes.length - take);
      const text = decoder.write(bytes.subarray(start));
      if (text.length > keepChars) {
        this.skipped += start;
        this.decoder = decoder;
        return text;
      }
      // Wider characters than guessed: as many more bytes as they took per character so far.
      take = Math.ceil(((keepChars + 1) * take) / Math.max(1, text.length)) + 4;
    }
    if (this.skipped === 0) return this.decoder.write(bytes);
    // Whole reads were dropped: the character cut in two is skipped whole, and the decoder forgets its half.
    const start = this.characterStart(bytes, 0);
    this.skipped += start;
    this.decoder = new StringDecoder('utf8');
    return this.decoder.write(bytes.subarray(start));
  }

  /** The first character's start at or after `at`: the rest of a character cut there is skipped. */
  private characterStart(bytes: Buffer, at: number): number {
    let start = at;
    while (start < bytes.length && start - at < 3 && isContinuation(bytes[start] as number)) start++;
    return start;
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
