/** What a text file's bytes look like, so a rewrite can keep them. */
export interface TextShape {
  bom: boolean;
  eol: '\n' | '\r\n';
}

export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;

/** A NUL byte or invalid UTF-8 in the first 8 KB: not a text file an agent should edit. */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? trimToCharBoundary(head) : head);
    return false;
  } catch {
    return true;
  }
}

function trimToCharBoundary(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  // Step back over a partial multi-byte sequence at the cut.
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  return bytes.subarray(0, end);
}

/** Decodes UTF-8 keeping a BOM as U+FEFF, so the text is the file's exact content. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

export function shapeOf(text: string): TextShape {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return { bom: text.startsWith('\uFEFF'), eol: crlf > lf ? '\r\n' : '\n' };
}

/** Agents write LF and no BOM; give their text the shape of the file it replaces. */
export function conformTo(shape: TextShape, content: string): string {
  let text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  if (shape.eol === '\r\n') text = text.replace(/\r?\n/g, '\r\n');
  return shape.bom ? `\uFEFF${text}` : text;
}

export function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** ACP `line` is 1-based and `limit` a line count; reading past the end yields what exists. */
export function sliceLines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  if ((line === null || line === undefined) && (limit === null || limit === undefined)) return text;
  const start = Math.max(1, line ?? 1) - 1;
  const lines = text.split(/(?<=\n)/);
  const end = limit === null || limit === undefined ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('');
}
