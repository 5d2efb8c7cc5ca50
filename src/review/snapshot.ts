/**
 * The ledger as plain JSON, so review survives a window reload (the adapter keeps it with
 * Tandem's workspace records, src/vscode/fileMemento.ts). Read back defensively: a snapshot
 * from another version is rejected, and hunks that do not fit their texts are recomputed.
 */
import type { UndoneHunk } from './fileChange';
import type { RedoEntry } from './redo';
import type { ChangeOrigin } from './types';
import type { NoteCounts } from './undoNotes';

export const SNAPSHOT_VERSION = 1;

export interface HunkSnapshot {
  id: string;
  baseStart: number;
  baseCount: number;
  currentStart: number;
  currentCount: number;
}

export interface FileSnapshot {
  path: string;
  origin: ChangeOrigin;
  base: string | null;
  current: string | null;
  toolCallIds: string[];
  hunks: HunkSnapshot[];
  /** Set only for content held as bytes: base and current are latin1. */
  encoding?: 'bytes';
}

export interface LedgerSnapshot {
  version: typeof SNAPSHOT_VERSION;
  nextId: number;
  files: FileSnapshot[];
  redo: RedoEntry[];
  notes: [string, NoteCounts][];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isOrigin = (value: unknown): value is ChangeOrigin => value === 'editor' || value === 'disk';
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isEncoding = (value: unknown): boolean => value === undefined || value === 'bytes';

function isHunk(value: unknown): value is HunkSnapshot {
  return isObject(value) && typeof value.id === 'string'
    && isCount(value.baseStart) && isCount(value.baseCount) && isCount(value.currentStart) && isCount(value.currentCount);
}

function isFile(value: unknown): value is FileSnapshot {
  return isObject(value) && typeof value.path === 'string' && isOrigin(value.origin) && isText(value.base) && isText(value.current)
    && isStrings(value.toolCallIds) && Array.isArray(value.hunks) && value.hunks.every(isHunk) && isEncoding(value.encoding);
}

function isUndone(value: unknown): value is UndoneHunk {
  return isObject(value) && typeof value.id === 'string' && isCount(value.at) && typeof value.restored === 'string'
    && isCount(value.restoredCount) && typeof value.removed === 'string';
}

function isRedo(value: unknown): value is RedoEntry {
  return isObject(value) && typeof value.reported === 'boolean' && Array.isArray(value.files) && value.files.every((file: unknown) =>
    isObject(file) && typeof file.path === 'string' && isOrigin(file.origin) && isStrings(file.toolCallIds)
      && isText(file.after) && typeof file.wasDeleted === 'boolean' && isText(file.base) && typeof file.baseIsAfter === 'boolean'
      && Array.isArray(file.pending) && file.pending.every(isHunk) && Array.isArray(file.hunks) && file.hunks.every(isUndone)
      && isEncoding(file.encoding));
}

function isNote(value: unknown): value is [string, NoteCounts] {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || !isObject(value[1])) return false;
  const counts = value[1];
  return isCount(counts.undone) && isCount(counts.kept) && isCount(counts.redone) && isCount(counts.pending)
    && typeof counts.undidCreation === 'boolean' && typeof counts.undidDeletion === 'boolean';
}

/** Throws when `value` is not a snapshot this version wrote. */
export function assertSnapshot(value: unknown): asserts value is LedgerSnapshot {
  if (!isObject(value) || value.version !== SNAPSHOT_VERSION) throw new Error('Not a change ledger snapshot of version 1');
  if (!isCount(value.nextId)) throw new Error('Change ledger snapshot: bad nextId');
  if (!Array.isArray(value.files) || !value.files.every(isFile)) throw new Error('Change ledger snapshot: bad files');
  if (!Array.isArray(value.redo) || !value.redo.every(isRedo)) throw new Error('Change ledger snapshot: bad redo stack');
  if (!Array.isArray(value.notes) || !value.notes.every(isNote)) throw new Error('Change ledger snapshot: bad undo notes');
}
