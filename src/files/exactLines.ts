/**
 * What a VS Code text buffer can hold of a file, and how to keep a file's own line endings when
 * something that knows only one line ending per file (the buffer, an agent) rewrites it. A
 * buffer has one EOL, CRLF or LF, for all its lines: a file that mixes them or has a lone CR is
 * normalised when it is opened, so saving it from the buffer would rewrite every other line.
 * Pure: the adapter asks these questions before it picks the buffer or the disk.
 */
import { diffArrays } from 'diff';

/** What the editor's buffer of a file is: its one line ending, and the encoding it saves with. */
export interface BufferShape {
  eol: '\n' | '\r\n';
  /** VS Code's name of the encoding ('utf8', 'utf8bom', 'iso88591', ...). */
  encoding: string;
}

interface Line {
  text: string;
  /** '\n', '\r\n', a lone '\r', or '' for a last line without one. */
  eol: string;
}

const LF = 10;
const CR = 13;

/** Lines as VS Code breaks them: after LF, CRLF or a lone CR. */
function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code !== LF && code !== CR) continue;
    const eol = code === CR && text.charCodeAt(at + 1) === LF ? '\r\n' : text.charAt(at);
    lines.push({ text: text.slice(start, at), eol });
    at += eol.length - 1;
    start = at + 1;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

/** A line's identity with its ending left out, except whether it has one (the last line may not). */
const keyOf = (line: Line) => (line.eol === '' ? line.text : `${line.text}\n`);
const whole = (line: Line) => line.text + line.eol;

/**
 * `target` with the line endings `file` has wherever a line's text is unchanged: only the lines
 * that were really edited take the endings `target` gives them. A rewrite by something that knows
 * one ending per file (an agent normalising CRLF, the client's own shaping) then changes no byte
 * of a line nobody touched.
 */
export function keepLineEndings(file: string, target: string): string {
  if (file === target) return target;
  const before = linesOf(file);
  const after = linesOf(target);
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && keyOf(before[prefix] as Line) === keyOf(after[prefix] as Line)) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && suffix < after.length - prefix
    && keyOf(before[before.length - 1 - suffix] as Line) === keyOf(after[after.length - 1 - suffix] as Line)) suffix++;
  const parts = before.slice(0, prefix).map(whole);
  let from = prefix;
  let to = prefix;
  for (const part of diffArrays(before.slice(prefix, before.length - suffix).map(keyOf), after.slice(prefix, after.length - suffix).map(keyOf))) {
    const count = part.value.length;
    if (part.removed) {
      from += count;
      continue;
    }
    const source = part.added ? after.slice(to, to + count) : before.slice(from, from + count);
    parts.push(...source.map(whole));
    to += count;
    if (!part.added) from += count;
  }
  parts.push(...before.slice(before.length - suffix).map(whole));
  return parts.join('');
}

/** The one line ending `text` uses throughout ('none' when it has no line break), or null when it mixes them or has a lone CR. */
export function oneLineEnding(text: string): '\n' | '\r\n' | 'none' | null {
  let lf = 0;
  let crlf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    lf++;
    if (text.charCodeAt(at - 1) === CR) crlf++;
  }
  let cr = 0;
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) cr++;
  if (cr !== crlf) return null;
  if (lf === 0) return 'none';
  if (crlf === 0) return '\n';
  return crlf === lf ? '\r\n' : null;
}

/**
 * True when a buffer of this shape holds `text` exactly, so saving it writes exactly the bytes
 * `text` stands for: one line ending, the buffer's (text without a line break fits any), and a
 * BOM exactly when the buffer saves one.
 */
export function bufferHolds(shape: BufferShape, text: string): boolean {
  if ((shape.encoding === 'utf8bom') !== text.startsWith('\uFEFF')) return false;
  const ending = oneLineEnding(text);
  return ending === 'none' || ending === shape.eol;
}

/** The same lines with the same text, whatever their line endings: what a buffer shows of a file it normalised. */
export function sameLines(a: string, b: string): boolean {
  const normalise = (text: string) => text.replace(/\r\n?/g, '\n');
  return normalise(a) === normalise(b);
}
