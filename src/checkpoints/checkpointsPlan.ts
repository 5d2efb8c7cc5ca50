/**
 * What "Restore to here" would do, computed against the files as they are now and shown before
 * anything is written: each file to restore, create again or delete, its line counts, and the
 * ones that may hold the user's own work (changed since Tandem last saw them, or unsaved in an
 * editor), which are only overwritten when the user says so. Files that cannot be restored (no
 * copy was kept, the copy is gone, a folder is in their place) are named with the reason.
 */
import { exactText } from '../files/textContent';
import type { RestoreFileAction, RestoreFileView } from './restoreFiles';
import type { Captured, CheckpointStore } from './checkpoints';
import { sha256 } from './checkpointsIndex';
import { diffLineArrays } from '../review/lineDiff';
import { splitLines } from '../review/lineText';

/** A file as it is now, for a restore. */
export type CurrentFile =
  | { kind: 'file'; bytes: Uint8Array }
  /** `missingFolder`: the nearest folder on its path that is gone too, or null. */
  | { kind: 'absent'; missingFolder: string | null }
  /** Something a restore must not touch (a folder in its place, outside the workspace, unreadable): why. */
  | { kind: 'unusable'; reason: string };

export interface RestoreReader {
  current(path: string): Promise<CurrentFile>;
  /** True when an editor holds unsaved text of the file. */
  unsaved(path: string): boolean;
  /** The path as the user reads it (relative to the workspace). */
  label(path: string): string;
}

/** A file of the plan as the preview shows it (less its display label), and what it goes back to. */
export interface PlannedFile extends Omit<RestoreFileView, 'label'> {
  /** The content to restore (a stored copy, or no file). */
  target: Extract<Captured, { kind: 'bytes' | 'absent' }>;
  /** sha256 of the file now (null: no file): a file that differs when the restore runs changed after the preview. */
  currentHash: string | null;
  unsaved: boolean;
}

export interface RestorePlan {
  checkpointId: string;
  files: PlannedFile[];
  problems: string[];
  /** Nothing can be restored, and why. */
  error: string | null;
}

/** Exact text, or null for content that is not text (binary, not UTF-8). */
function textOf(bytes: Uint8Array | null): string | null {
  return bytes === null ? '' : exactText(bytes);
}

/** Lines the restore adds and removes, going from `now` to `then`; null when either is not text. */
function lineCounts(now: Uint8Array | null, then: Uint8Array | null): { added: number; removed: number } | null {
  const [nowText, thenText] = [textOf(now), textOf(then)];
  if (nowText === null || thenText === null) return null;
  let added = 0;
  let removed = 0;
  for (const edit of diffLineArrays(splitLines(nowText), splitLines(thenText))) {
    added += edit.bCount;
    removed += edit.aCount;
  }
  return { added, removed };
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  return a === null || b === null ? a === b : Buffer.compare(a, b) === 0;
}

/** Why the file may hold work Tandem did not see, or null. */
function handEditOf(store: CheckpointStore, path: string, now: Uint8Array | null, unsaved: boolean): string | null {
  if (unsaved) return 'it has unsaved changes in an editor';
  const left = store.leftIn(path);
  const hash = now === null ? null : sha256(now);
  if (left === undefined || left === hash) return null;
  if (now === null) return 'it was deleted since, outside Tandem\'s review';
  if (textOf(now) === null) return 'it was changed since, outside Tandem\'s review, and is no longer text';
  return 'it was changed since Tandem last saw it (by hand or by another program)';
}

function actionOf(now: Uint8Array | null, then: Uint8Array | null): RestoreFileAction {
  if (then === null) return 'delete';
  return now === null ? 'create' : 'restore';
}

function folderNote(current: CurrentFile, reader: RestoreReader): string | null {
  const missing = current.kind === 'absent' ? current.missingFolder : null;
  return missing === null ? null : `its folder ${reader.label(missing)} is gone and is created again`;
}

/** One file of the plan, or the sentence saying why it is left as it is; undefined when it needs nothing. */
async function planFile(store: CheckpointStore, reader: RestoreReader, path: string, captured: Captured): Promise<PlannedFile | string | undefined> {
  const label = reader.label(path);
  if (captured.kind === 'unkept') return `${label}: Tandem could not keep a copy of it at that point (${captured.reason}), so it is left as it is.`;
  const then = captured.kind === 'bytes' ? await store.content(captured) : null;
  if (captured.kind === 'bytes' && then === null) return `${label}: the copy Tandem kept of it is missing or damaged, so it is left as it is.`;
  const current = await reader.current(path);
  if (current.kind === 'unusable') return `${label}: ${current.reason}, so it is left as it is.`;
  const now = current.kind === 'file' ? current.bytes : null;
  // The disk is as it was then: unsaved text in an editor is the user's, and stays.
  if (sameBytes(now, then)) return undefined;
  const unsaved = reader.unsaved(path);
  const counts = lineCounts(now, then);
  return {
    path,
    action: actionOf(now, then),
    added: counts?.added ?? 0,
    removed: counts?.removed ?? 0,
    binary: counts === null,
    handEdit: handEditOf(store, path, now, unsaved),
    note: then === null ? null : folderNote(current, reader),
    target: captured,
    currentHash: now === null ? null : sha256(now),
    unsaved,
  };
}

export async function planRestore(store: CheckpointStore, checkpointId: string, reader: RestoreReader): Promise<RestorePlan> {
  // Copies still on their way to the blob store are read from memory; the index must be settled.
  await store.flush();
  const targets = store.targets(checkpointId);
  if ('error' in targets) return { checkpointId, files: [], problems: [], error: targets.error };
  const files: PlannedFile[] = [];
  const problems: string[] = [];
  const paths = [...targets.files.keys()].sort();
  const plannedFiles = await Promise.all(paths.map((path) => planFile(store, reader, path, targets.files.get(path) as Captured)));
  for (const planned of plannedFiles) {
    if (typeof planned === 'string') problems.push(planned);
    else if (planned) files.push(planned);
  }
  return { checkpointId, files, problems, error: null };
}
