import { createHash } from 'node:crypto';

/**
 * The hex sha256 of exact bytes, or `absent` for a file that is not there. Tests compare files by
 * it: equal hashes are equal bytes, and a failure prints two short lines instead of two buffers.
 */
export function sha256(bytes: Uint8Array | null): string {
  return bytes === null ? 'absent' : createHash('sha256').update(bytes).digest('hex');
}
