/**
 * A whole-file text with an index of where its lines start. Every line keeps its own EOL, so
 * joining any run of lines gives back the exact characters (BOM, CRLF, mixed EOLs, no final
 * newline). The index costs 4 bytes a line, so the ledger can hold texts, not line arrays.
 */

const LF = 10;
const CR = 13;

/**
 * Offsets where each line starts, plus the text length at the end. A line ends after '\n',
 * '\r\n' or a lone '\r': VS Code breaks lines on a lone CR too, so line numbers match the editor.
 */
export function lineStarts(text: string): Uint32Array {
  const starts: number[] = [0];
  if (text.indexOf('\r') === -1) {
    // The common case: indexOf is much faster than a charCodeAt loop on large texts.
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  } else {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === LF || (code === CR && text.charCodeAt(i + 1) !== LF)) starts.push(i + 1);
    }
  }
  if (starts[starts.length - 1] !== text.length) starts.push(text.length);
  return Uint32Array.from(starts);
}

/** Splits a text into lines that keep their EOL; `join('')` gives the text back. */
export function splitLines(text: string | null): string[] {
  return new LineText(text).lines();
}

/** A line without its EOL, for display. */
export function stripEol(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  if (line.endsWith('\n') || line.endsWith('\r')) return line.slice(0, -1);
  return line;
}

export class LineText {
  private readonly starts: Uint32Array;

  /**
   * `text` null = the file does not exist; it has no lines, like the empty text. `whole`: the
   * text is one line however many EOL characters it holds (content held as bytes is reviewed as
   * a whole file, and its 0x0A bytes need not be line ends).
   */
  constructor(readonly text: string | null, whole = false) {
    this.starts = whole ? Uint32Array.from(text ? [0, text.length] : [0]) : lineStarts(text ?? '');
  }

  get lineCount(): number {
    return this.starts.length - 1;
  }

  /** The exact characters of lines [from, to). */
  slice(from: number, to: number): string {
    if (this.text === null || from >= to) return '';
    return this.text.slice(this.offset(from), this.offset(to));
  }

  lines(from = 0, to = this.lineCount): string[] {
    const lines: string[] = [];
    if (this.text === null) return lines;
    for (let line = from; line < to; line++) lines.push(this.text.slice(this.offset(line), this.offset(line + 1)));
    return lines;
  }

  private offset(line: number): number {
    return this.starts[Math.min(line, this.lineCount)] ?? 0;
  }
}
