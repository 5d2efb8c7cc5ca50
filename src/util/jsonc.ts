/**
 * JSON with comments and trailing commas, as VS Code's `mcp.json` and Gemini CLI's settings allow.
 * Comments and trailing commas are only recognised outside strings, so a URL's `//` or a `,}`
 * inside a value stays as written.
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonc(text));
}

function stripJsonc(text: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (char === '"') {
      const end = stringEnd(text, i);
      out.push(text.slice(i, end));
      i = end;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      if (char === '}' || char === ']') dropTrailingComma(out);
      out.push(char);
      i++;
    }
  }
  return out.join('');
}

/** Strings are pushed whole, so a last non-blank piece that is `,` is a comma between values. */
function dropTrailingComma(out: string[]): void {
  for (let j = out.length - 1; j >= 0; j--) {
    const piece = out[j] ?? '';
    if (piece === ',') {
      out.splice(j, 1);
      return;
    }
    if (piece.trim() !== '') return;
  }
}

/** The index just past the string literal that starts at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}
