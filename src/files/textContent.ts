/** What a text file's bytes look like, so a rewrite can keep them. */
export interface TextShape {
  bom: boolean;
  eol: '\n' | '\r\n';
}

export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The exact text of a UTF-8 text file, or null for anything else: a NUL byte in the first 8 KB,
 * or invalid UTF-8 anywhere (text decoded with replacement characters would be written back with
 * them, and the bytes they stood for would be gone).
 */
export function exactText(bytes: Uint8Array): string | null {
  return bytes.subarray(0, 8192).includes(0) ? null : decodeUtf8(bytes);
}

/** The file's exact text (a BOM kept as U+FEFF), or null when its bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
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
