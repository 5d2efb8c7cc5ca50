/**
 * Content held as bytes: one character per byte (latin1). Every byte value maps to one char and
 * back, so the ledger can diff, store and persist such content as a string and the adapter can
 * write back exactly the bytes it read. V8 keeps these as one-byte strings: a byte a byte.
 */

/** Converted in slices: String.fromCharCode takes its arguments on the stack. */
const SLICE = 0x8000;

export function bytesToLatin1(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += SLICE) text += String.fromCharCode(...bytes.subarray(at, at + SLICE));
  return text;
}

/** A text's UTF-8 bytes, as latin1: how a text entry's content looks once the file is held as bytes. */
export function textToLatin1(text: string | null): string | null {
  return text === null ? null : bytesToLatin1(new TextEncoder().encode(text));
}

/** What a whole-file hunk shows for content held as bytes. */
export function describeBytes(content: string): string {
  return `${content.length.toLocaleString('en-US')} bytes, not shown as text (binary, not UTF-8, or too large): keep or undo the whole file`;
}
