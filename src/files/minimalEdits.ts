import { diffArrays } from 'diff';

export interface TextReplacement {
  /** Offsets into the old text. */
  start: number;
  end: number;
  text: string;
}

function splitLines(text: string): string[] {
  return text.split(/(?<=\n)/);
}

/**
 * The smallest set of line-level replacements turning `oldText` into `newText`, so a write lands
 * in the editor as edits to the changed lines only (cursor, folding and the user's other edits
 * stay put). Common prefix and suffix are trimmed first, so large files with small changes are cheap.
 */
export function minimalEdits(oldText: string, newText: string): TextReplacement[] {
  if (oldText === newText) return [];
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < oldLines.length - prefix && suffix < newLines.length - prefix
    && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) suffix++;
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
  const newMiddle = newLines.slice(prefix, newLines.length - suffix);
  let offset = oldLines.slice(0, prefix).reduce((sum, line) => sum + line.length, 0);
  const edits: TextReplacement[] = [];
  let pending: TextReplacement | null = null;
  for (const part of diffArrays(oldMiddle, newMiddle)) {
    const length = part.value.reduce((sum, line) => sum + line.length, 0);
    if (!part.added && !part.removed) {
      if (pending) edits.push(pending);
      pending = null;
      offset += length;
      continue;
    }
    pending ??= { start: offset, end: offset, text: '' };
    if (part.removed) {
      pending.end += length;
      offset += length;
    } else {
      pending.text += part.value.join('');
    }
  }
  if (pending) edits.push(pending);
  return edits;
}

export function applyEdits(oldText: string, edits: readonly TextReplacement[]): string {
  let result = '';
  let cursor = 0;
  for (const edit of edits) {
    result += oldText.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return result + oldText.slice(cursor);
}
