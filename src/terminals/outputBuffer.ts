/** A UTF-8 continuation byte (10xxxxxx): never the first byte of a character. */
export function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Bytes at the end of `bytes` that start a character whose remaining bytes have not arrived yet. */
export function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if (isContinuation(byte)) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

/** Small reads are merged into blocks of about this size, so many tiny chunks cost little. */
const MERGE_BELOW = 16 * 1024;
/** A valid character has at most three continuation bytes; binary output may have more. */
const MAX_CONTINUATION_SKIP = 3;

/**
 * A command's output as the agent sees it: the newest bytes within `limit`. When the limit is
 * exceeded, bytes are dropped from the beginning and the cut is moved forward to the start of
 * a character, so the kept text never begins with half a UTF-8 sequence. Memory is bounded by
 * the limit plus one read, whatever the command prints.
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private droppedBytes = 0;

  constructor(readonly limit: number) {}

  get byteLength(): number {
    return this.size;
  }

  get truncated(): boolean {
    return this.droppedBytes > 0;
  }

  get dropped(): number {
    return this.droppedBytes;
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (bytes.length >= this.limit) {
      // The chunk alone fills the budget: keep only its tail.
      this.droppedBytes += this.size + bytes.length - this.limit;
      this.chunks = [bytes.subarray(bytes.length - this.limit)];
      this.size = this.limit;
      this.alignStart();
      return;
    }
    const last = this.chunks[this.chunks.length - 1];
    if (last && bytes.length < MERGE_BELOW && last.length < MERGE_BELOW) {
      this.chunks[this.chunks.length - 1] = Buffer.concat([last, bytes]);
    } else {
      // Kept without a copy: a read's buffer is its own (Node sizes it to the bytes read).
      this.chunks.push(bytes);
    }
    this.size += bytes.length;
    this.trimFront();
  }

  /** The kept output as text. While more may come, a character whose bytes are incomplete waits. */
  text(final: boolean): string {
    const bytes = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const end = final ? bytes.length : bytes.length - incompleteTail(bytes);
    return bytes.toString('utf8', 0, end);
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }

  private trimFront(): void {
    if (this.size <= this.limit) return;
    while (this.size > this.limit) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.droppedBytes += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
        this.droppedBytes += excess;
      }
    }
    this.alignStart();
  }

  /** After a cut, drops the continuation bytes of a character whose first byte was cut off. */
  private alignStart(): void {
    for (let skipped = 0; skipped < MAX_CONTINUATION_SKIP; skipped++) {
      const first = this.chunks[0];
      if (!first) return;
      if (first.length === 0) {
        this.chunks.shift();
        skipped--;
        continue;
      }
      if (!isContinuation(first[0] as number)) return;
      this.chunks[0] = first.subarray(1);
      this.size -= 1;
      this.droppedBytes += 1;
    }
  }
}
