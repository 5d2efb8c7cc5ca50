import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import type { ContentEncoding } from './types';
import { errorMessage } from '../redaction/redactedLog';
import { exactText, MAX_TEXT_FILE_BYTES } from '../files/textContent';

/**
 * Largest file a snapshot keeps an exact copy of. A pending file then costs at most two copies
 * (base and current) in the ledger; a larger one is reported as changed but not reviewable.
 */
export const MAX_KEPT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * What a snapshot found at a path: an exact copy (text, or bytes as latin1; content null = no
 * file), or a file that exists but of which no copy could be kept (`stamp` tells a change).
 */
export type DiskContent =
  | { kind: 'kept'; encoding: ContentEncoding; content: string | null }
  | { kind: 'unkept'; reason: string; stamp: string };

export const missing: DiskContent = { kind: 'kept', encoding: 'text', content: null };

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

function unkept(reason: string, stats: Stats | null): DiskContent {
  return { kind: 'unkept', reason, stamp: stats ? `${stats.size}:${stats.mtimeMs}:${stats.ino}` : reason };
}

/** ENOENT and ENOTDIR mean no file; anything else means a file that could not be read, never "no file". */
function failedRead(error: unknown, stats: Stats | null): DiskContent {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return missing;
  return unkept(`it could not be read (${code ?? errorMessage(error)})`, stats);
}

/** The file's bytes from `fd` up to its end, or null past MAX_KEPT_FILE_BYTES (it grew while read). */
function readToEnd(fd: number, size: number): Buffer | null {
  // One byte more than expected, so that growth shows without a second buffer in the usual case.
  let buffer = Buffer.allocUnsafe(Math.min(size, MAX_KEPT_FILE_BYTES) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > MAX_KEPT_FILE_BYTES) return null;
      buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(length, MAX_KEPT_FILE_BYTES + 1 - length))]);
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
  }
}

/** Text when the bytes are a text file within the text limit, else the exact bytes. */
function keptContent(bytes: Buffer): DiskContent {
  const text = bytes.length <= MAX_TEXT_FILE_BYTES ? exactText(bytes) : null;
  return text === null ? { kind: 'kept', encoding: 'bytes', content: bytes.toString('latin1') } : { kind: 'kept', encoding: 'text', content: text };
}

/**
 * Reads a file now, synchronously, so the snapshot is taken before the agent's next step. Only
 * regular files are opened (a FIFO or device would block the host), the size is checked before
 * reading, and the opened file must be the one that was checked.
 */
export function readDiskNow(path: string): DiskContent {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return failedRead(error, null);
  }
  if (!stats.isFile()) return unkept('it is not a regular file', stats);
  if (stats.size > MAX_KEPT_FILE_BYTES) return unkept(`it is ${megabytes(stats.size)}, over the ${megabytes(MAX_KEPT_FILE_BYTES)} of which Tandem keeps a copy`, stats);
  let fd: number;
  try {
    // Non-blocking: should the path have become a FIFO since the stat, opening it must not wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return failedRead(error, stats);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.ino !== stats.ino || opened.dev !== stats.dev) return unkept('it was replaced while it was read', opened);
    const bytes = readToEnd(fd, opened.size);
    return bytes ? keptContent(bytes) : unkept(`it grew past ${megabytes(MAX_KEPT_FILE_BYTES)} while it was read`, opened);
  } catch (error) {
    return failedRead(error, stats);
  } finally {
    closeSync(fd);
  }
}

export function sameContent(a: DiskContent, b: DiskContent): boolean {
  if (a.kind === 'unkept') return b.kind === 'unkept' && a.stamp === b.stamp;
  return b.kind === 'kept' && a.encoding === b.encoding && a.content === b.content;
}

export type Kept = Extract<DiskContent, { kind: 'kept' }>;
