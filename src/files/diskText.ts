import { keepLineEndings } from './exactLines';
import { assertLeadsTo, readRegularFile, writeRegularFile } from './fileAccess';
import { MAX_TEXT_FILE_BYTES } from './textContent';
import { decodeExactly, encodeExactly, isUtf8, type DecodedText, type TextCodec } from './textEncoding';

/** What a write left in a file. */
export interface WrittenText {
  /** The exact text the file (or its unsaved document) holds now. */
  text: string;
  /**
   * For a file not in UTF-8: its bytes before and after the write. Review holds those instead of
   * the text, so an undo gives back every byte whatever the encoding.
   */
  bytes?: { before: Uint8Array; after: Uint8Array };
}

/** The text of the regular file at a checked real path, in its encoding (null: no file); see decodeExactly. */
export async function readDiskText(path: string, realPath: string, codec: TextCodec): Promise<(DecodedText & { bytes: Uint8Array }) | null> {
  const bytes = await readRegularFile(realPath, MAX_TEXT_FILE_BYTES);
  return bytes === null ? null : { ...(await decodeExactly(path, bytes, codec)), bytes };
}

/**
 * Makes `text` the content of the file `path` names, at the real path checked for it: in the
 * file's own encoding (UTF-8 for a new one), and lines whose text is unchanged keep their line
 * endings. Tandem writes the bytes itself, opening the checked real path without following a
 * link and proving the opened file is that one (writeRegularFile): nothing that only names the
 * path (a save by the editor) writes them, so a link or folder swapped in meanwhile lands nothing
 * elsewhere and the write is refused in a sentence that says so.
 */
export async function writeDiskText(path: string, realPath: string, text: string, codec: TextCodec): Promise<WrittenText> {
  const current = await readDiskText(path, realPath, codec);
  const target = current === null ? text : keepLineEndings(current.text, text);
  if (target === current?.text) return { text: target };
  const bytes = await encodeExactly(path, target, current?.encoding ?? 'utf8', codec);
  assertLeadsTo(path, realPath);
  await writeRegularFile(realPath, bytes);
  return current === null || isUtf8(current.encoding) ? { text: target } : { text: target, bytes: { before: current.bytes, after: bytes } };
}
