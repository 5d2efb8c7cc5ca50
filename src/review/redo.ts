/**
 * Bringing undone hunks back. An undo remembers the text right after it and the hunks it took
 * out (their lines and where their restored base lines sit). Redo puts those lines back: when
 * the file still holds that text this gives exactly the text from before the undo, without
 * storing it; if something changed the file since (the user typed, the agent wrote, other
 * undos), each hunk goes back where its restored base lines now sit, found by diffing the
 * remembered text against the text of now. When those lines were touched since, the file is
 * left alone.
 */
import type { Hunk, UndoneHunk } from './fileChange';
import { diffLineArrays, type LineEdit } from './lineDiff';
import { LineText } from './lineText';
import type { ChangeOrigin } from './types';

export interface RedoFile {
  path: string;
  origin: ChangeOrigin;
  toolCallIds: string[];
  /** The text right after the undo (null = the undo deleted a new file). */
  after: string | null;
  /** Right before the undo the agent had deleted the file (the undo restored it). */
  wasDeleted: boolean;
  /** The base right before the undo, unless it equals `after` (the undo resolved the file): then null and `baseIsAfter`. */
  base: string | null;
  baseIsAfter: boolean;
  /** The pending hunks right before the undo: restored as they were when nothing moved since. */
  pending: Hunk[];
  hunks: UndoneHunk[];
  /** Set only for content held as bytes (one line each: see FileChange). */
  encoding?: 'bytes';
}

export interface RedoEntry {
  files: RedoFile[];
  /** takeUndoSummary already told the agent about this undo. */
  reported: boolean;
}

/** Characters of text a redo entry keeps alive (the ledger bounds the stack by this). */
export function redoWeight(entry: RedoEntry): number {
  return entry.files.reduce((sum, file) => sum + (file.after?.length ?? 0) + (file.baseIsAfter ? 0 : (file.base?.length ?? 0)), 0);
}

/** `now` with the undone hunks back in, or undefined when they no longer fit. */
export function reapply(now: string | null, file: RedoFile): string | null | undefined {
  const unchanged = now === file.after;
  if (file.wasDeleted) return unchanged ? null : undefined;
  // A file deleted or re-created since the undo has nothing to anchor the hunks to.
  if (!unchanged && (now === null || file.after === null)) return undefined;
  const whole = file.encoding === 'bytes';
  const after = new LineText(file.after ?? '', whole);
  const current = unchanged ? after : new LineText(now, whole);
  const edits = unchanged ? [] : diffLineArrays(after.lines(), current.lines());
  const placed: { at: number; hunk: UndoneHunk }[] = [];
  for (const hunk of file.hunks) {
    const at = mapRegion(edits, hunk.at, hunk.restoredCount);
    if (at === undefined || current.slice(at, at + hunk.restoredCount) !== hunk.restored) return undefined;
    placed.push({ at, hunk });
  }
  placed.sort((x, y) => x.at - y.at);
  let text = '';
  let line = 0;
  for (const { at, hunk } of placed) {
    if (at < line) return undefined;
    text += current.slice(line, at) + hunk.removed;
    line = at + hunk.restoredCount;
  }
  return text + current.slice(line, current.lineCount);
}

/**
 * Where lines [at, at + count) of the old text are in the new one, or undefined when an edit
 * touches them. An insertion right at `at` counts as before the region.
 */
export function mapRegion(edits: readonly LineEdit[], at: number, count: number): number | undefined {
  let shift = 0;
  for (const edit of edits) {
    const end = edit.aStart + edit.aCount;
    if (end <= at) shift += edit.bCount - edit.aCount;
    else if (edit.aStart >= at + count) break;
    else return undefined;
  }
  return at + shift;
}
