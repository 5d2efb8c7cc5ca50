/**
 * A file's text in its own encoding, as the editor reads it, and only where its bytes come back
 * exactly: text an agent reads is what Tandem writes back, and an undo gives back every byte.
 * Encodings go by VS Code's names ('utf8', 'utf8bom', 'utf16le', 'iso88591', 'windows1252', ...).
 */
import { FileRefused } from './fileAccess';
import { decodeUtf8 } from './textContent';

/** The editor's encodings, and which it would read a file in. */
export interface TextCodec {
  /** The encodings the editor reads this file in, most likely first: its open document's, then `files.encoding`. */
  encodingsFor(path: string): readonly string[];
  /** The editor's guess from the file's content where `files.autoGuessEncoding` is on; asked only when no other encoding fits. */
  guessEncoding(path: string): Promise<string | undefined>;
  decode(bytes: Uint8Array, encoding: string): Promise<string>;
  encode(text: string, encoding: string): Promise<Uint8Array>;
}

export interface DecodedText {
  /** UTF-8's BOM is kept as U+FEFF, so the text is the whole file. */
  text: string;
  encoding: string;
}

/** VS Code's check: how far into a file a NUL byte makes it binary. */
const BINARY_CHECK_BYTES = 8192;

export const isUtf8 = (encoding: string) => encoding === 'utf8' || encoding === 'utf8bom';

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8bom';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return undefined;
}

/** A NUL byte near the start of a file that does not announce UTF-16 by its BOM: binary, in any encoding. */
export function isBinary(bytes: Uint8Array): boolean {
  const bom = bomEncoding(bytes);
  return (bom === undefined || bom === 'utf8bom') && bytes.subarray(0, BINARY_CHECK_BYTES).includes(0);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** The text of `bytes` in `encoding` when encoding it again gives back every byte, else null. */
async function exactlyIn(bytes: Uint8Array, encoding: string, codec: TextCodec): Promise<DecodedText | null> {
  if (isUtf8(encoding)) {
    const text = decodeUtf8(bytes);
    return text === null ? null : { text, encoding: text.startsWith('\uFEFF') ? 'utf8bom' : 'utf8' };
  }
  const text = await codec.decode(bytes, encoding);
  return sameBytes(await codec.encode(text, encoding), bytes) ? { text, encoding } : null;
}

/**
 * The file's text in the first encoding the editor would read it in that holds its bytes exactly:
 * a BOM's, then the editor's (see TextCodec), then its guess. Refused when it is binary, or when
 * none of them holds it (the editor would show replacement characters, and a write would lose bytes).
 */
export async function decodeExactly(path: string, bytes: Uint8Array, codec: TextCodec): Promise<DecodedText> {
  if (isBinary(bytes)) throw new FileRefused(path, `${path} is a binary file, not text.`);
  const tried = new Set<string>();
  const attempt = async (encoding: string | undefined) => {
    if (encoding === undefined || tried.has(encoding)) return null;
    tried.add(encoding);
    return exactlyIn(bytes, encoding, codec);
  };
  for (const encoding of [bomEncoding(bytes), ...codec.encodingsFor(path)]) {
    const decoded = await attempt(encoding);
    if (decoded) return decoded;
  }
  const decoded = await attempt(await codec.guessEncoding(path));
  if (decoded) return decoded;
  throw new FileRefused(path, `${path} is not text in ${[...tried].join(' or ')}, the encoding the editor reads it in: set files.encoding for it (or turn on files.autoGuessEncoding) to edit it.`);
}

/** `text` in the file's encoding; refused when the encoding cannot hold every character of it. */
export async function encodeExactly(path: string, text: string, encoding: string, codec: TextCodec): Promise<Uint8Array> {
  if (isUtf8(encoding)) return Buffer.from(text, 'utf8');
  const bytes = await codec.encode(text, encoding);
  if ((await codec.decode(bytes, encoding)) !== text) {
    throw new FileRefused(path, `${path} is saved in ${encoding}, which cannot hold every character of the new text, so nothing was written.`);
  }
  return bytes;
}
