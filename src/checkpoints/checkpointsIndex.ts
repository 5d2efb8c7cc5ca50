/**
 * What the checkpoints know, besides the bytes themselves: which checkpoint holds which file's
 * earlier content (by its sha256), and what Tandem last left in each file. Kept as plain JSON
 * with Tandem's workspace records (src/vscode/fileMemento.ts); paths and blobs are interned
 * there, so a long session costs a number per file and checkpoint, not a path and a hash. Read
 * back defensively, like the ledger's snapshot.
 */
import { createHash } from 'node:crypto';

export const CHECKPOINT_INDEX_VERSION = 1;

/** A file's content at a checkpoint: stored bytes, no file at all, or none that could be kept (and why). */
export type Captured =
  | { kind: 'bytes'; hash: string; size: number }
  | { kind: 'absent' }
  | { kind: 'unkept'; reason: string };

export type CheckpointKind = 'message' | 'restore';

export interface Checkpoint {
  readonly id: string;
  readonly createdAt: number;
  /** 'message': taken as a user message was sent; 'restore': the state just before a restore. */
  readonly kind: CheckpointKind;
  readonly tabId: string | null;
  /** The user message (thread entry id) it was taken for, once the thread has it. */
  messageId: string | null;
  label: string;
  /** The agent session the message went to, once known: a conversation reopened from the agent's history finds it by that. */
  sessionId: string | null;
  /** Hash of the conversation up to the message (see checkpointsLookup): a copy of the conversation (a fork) finds it by that. */
  context: string | null;
  /** For a restore point: the checkpoint that restore went back to. */
  readonly restoredTo: string | null;
  /** Files first changed after this checkpoint, with their content at it. */
  readonly files: Map<string, Captured>;
  /** Set once the checkpoint's copies were let go to stay within the bound: the sentence why. */
  dropped: string | null;
}

export interface CheckpointState {
  nextId: number;
  /** Oldest first. */
  checkpoints: Checkpoint[];
  /** sha256 of what Tandem last saw the agent (or a restore) leave in each file; null = no file. */
  left: Map<string, string | null>;
  /** The restore point of the last restore, which "Redo restore" goes back to. */
  lastRestore: string | null;
}

/** No blob: the file did not exist. */
const ABSENT = -1;

interface CheckpointJson {
  id: string;
  createdAt: number;
  kind: CheckpointKind;
  tabId: string | null;
  messageId: string | null;
  label: string;
  restoredTo: string | null;
  dropped: string | null;
  /** Absent in indexes written before conversations could share checkpoints. */
  sessionId?: string | null;
  context?: string | null;
  /** [path index, blob index or -1]. */
  files: [number, number][];
  /** [path index, reason]. */
  unkept: [number, string][];
}

export interface CheckpointIndexJson {
  version: typeof CHECKPOINT_INDEX_VERSION;
  nextId: number;
  paths: string[];
  /** [sha256, size]. */
  blobs: [string, number][];
  checkpoints: CheckpointJson[];
  left: [number, string | null][];
  lastRestore: string | null;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function emptyState(): CheckpointState {
  return { nextId: 1, checkpoints: [], left: new Map(), lastRestore: null };
}

/** Hands out one index per distinct value, in first-seen order. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly indexes = new Map<string, number>();

  constructor(private readonly key: (value: T) => string) {}

  of(value: T): number {
    const key = this.key(value);
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.indexes.set(key, index);
    }
    return index;
  }
}

export function stateToJson(state: CheckpointState): CheckpointIndexJson {
  const paths = new Interned<string>((path) => path);
  const blobs = new Interned<[string, number]>(([hash]) => hash);
  const checkpoints = state.checkpoints.map((checkpoint): CheckpointJson => {
    const files: [number, number][] = [];
    const unkept: [number, string][] = [];
    for (const [path, captured] of checkpoint.files) {
      if (captured.kind === 'unkept') unkept.push([paths.of(path), captured.reason]);
      else files.push([paths.of(path), captured.kind === 'absent' ? ABSENT : blobs.of([captured.hash, captured.size])]);
    }
    const { id, createdAt, kind, tabId, messageId, label, restoredTo, dropped, sessionId, context } = checkpoint;
    return { id, createdAt, kind, tabId, messageId, label, restoredTo, dropped, sessionId, context, files, unkept };
  });
  const left = [...state.left].map(([path, hash]): [number, string | null] => [paths.of(path), hash]);
  return { version: CHECKPOINT_INDEX_VERSION, nextId: state.nextId, paths: paths.values, blobs: blobs.values, checkpoints, left, lastRestore: state.lastRestore };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isOptionalText = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isHash = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
const isPair = <A, B>(value: unknown, first: (item: unknown) => item is A, second: (item: unknown) => item is B): value is [A, B] =>
  Array.isArray(value) && value.length === 2 && first(value[0]) && second(value[1]);
const isBlobRef = (value: unknown): value is number => value === ABSENT || isCount(value);

function fail(what: string): never {
  throw new Error(`Checkpoint index: bad ${what}`);
}

function isCheckpointJson(value: unknown): value is CheckpointJson {
  if (!isObject(value) || typeof value.id !== 'string' || !isCount(value.createdAt) || typeof value.label !== 'string') return false;
  return (value.kind === 'message' || value.kind === 'restore') && [value.tabId, value.messageId, value.restoredTo, value.dropped].every(isOptionalText)
    && [value.sessionId ?? null, value.context ?? null].every(isOptionalText) && Array.isArray(value.files) && Array.isArray(value.unkept);
}

function checkpointFromJson(value: unknown, paths: readonly string[], blobs: readonly [string, number][]): Checkpoint {
  if (!isCheckpointJson(value)) fail('checkpoint');
  const files = new Map<string, Captured>();
  const pathAt = (index: number) => paths[index] ?? fail('path reference');
  for (const entry of value.files as unknown[]) {
    if (!isPair(entry, isCount, isBlobRef)) fail('file entry');
    const blob = entry[1] === ABSENT ? null : (blobs[entry[1]] ?? fail('blob reference'));
    files.set(pathAt(entry[0]), blob ? { kind: 'bytes', hash: blob[0], size: blob[1] } : { kind: 'absent' });
  }
  for (const entry of value.unkept as unknown[]) {
    if (!isPair(entry, isCount, (item): item is string => typeof item === 'string')) fail('unkept entry');
    files.set(pathAt(entry[0]), { kind: 'unkept', reason: entry[1] });
  }
  const { id, createdAt, kind, tabId, messageId, label, restoredTo, dropped } = value;
  return { id, createdAt, kind, tabId, messageId, label, restoredTo, files, dropped, sessionId: value.sessionId ?? null, context: value.context ?? null };
}

/** Throws when `value` is not an index this version wrote. */
export function stateFromJson(value: unknown): CheckpointState {
  if (!isObject(value) || value.version !== CHECKPOINT_INDEX_VERSION) throw new Error(`Not a checkpoint index of version ${CHECKPOINT_INDEX_VERSION}`);
  if (!isCount(value.nextId)) fail('nextId');
  if (!Array.isArray(value.paths) || !value.paths.every((path) => typeof path === 'string')) fail('paths');
  if (!Array.isArray(value.blobs) || !value.blobs.every((blob) => isPair(blob, isHash, isCount))) fail('blobs');
  if (!Array.isArray(value.checkpoints) || !Array.isArray(value.left) || !isOptionalText(value.lastRestore)) fail('checkpoints');
  const paths = value.paths as string[];
  const checkpoints = value.checkpoints.map((checkpoint) => checkpointFromJson(checkpoint, paths, value.blobs as [string, number][]));
  const left = new Map<string, string | null>();
  for (const entry of value.left) {
    if (!isPair(entry, isCount, (item): item is string | null => item === null || isHash(item))) fail('left entry');
    left.set(paths[entry[0]] ?? fail('path reference'), entry[1]);
  }
  return { nextId: value.nextId, checkpoints, left, lastRestore: value.lastRestore };
}
