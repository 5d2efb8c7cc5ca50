import type { FileChange } from './fileChange';
import { redoWeight, type RedoEntry, type RedoFile } from './redo';

/** Undos kept for redo, and the characters of text they may keep alive; older ones are forgotten. */
const MAX_REDO = 50;
const MAX_REDO_CHARS = 32 * 1024 * 1024;

export type RedoFacts = Pick<RedoFile, 'path' | 'origin' | 'toolCallIds' | 'wasDeleted' | 'pending' | 'encoding'>;

/** What a redo needs from the state right before an undo. */
export function redoFacts(entry: FileChange): RedoFacts {
  return {
    path: entry.path,
    origin: entry.origin,
    toolCallIds: [...entry.toolCallIds],
    wasDeleted: entry.current.text === null,
    pending: entry.hunks.map((hunk) => ({ ...hunk })),
    ...(entry.encoding === 'bytes' ? { encoding: 'bytes' as const } : {}),
  };
}

/** The redo record once the undo is done; the base is kept only if it is not the text after. */
export function redoFile(facts: RedoFacts, entry: FileChange, hunks: RedoFile['hunks']): RedoFile {
  const baseIsAfter = entry.base.text === entry.current.text;
  return { ...facts, after: entry.current.text, base: baseIsAfter ? null : entry.base.text, baseIsAfter, hunks };
}

/** The undos "Redo" can bring back, newest last, bounded in count and in the text they keep. */
export class RedoStack {
  private readonly undos: RedoEntry[];

  constructor(undos: readonly RedoEntry[] = []) {
    this.undos = undos.map(copyRedo);
  }

  get isEmpty(): boolean {
    return this.undos.length === 0;
  }

  push(files: RedoFile[]): void {
    this.undos.push({ files, reported: false });
    let weight = this.undos.reduce((sum, undo) => sum + redoWeight(undo), 0);
    while (this.undos.length > 1 && (this.undos.length > MAX_REDO || weight > MAX_REDO_CHARS)) {
      const dropped = this.undos.shift();
      weight -= dropped ? redoWeight(dropped) : 0;
    }
  }

  pop(): RedoEntry | undefined {
    return this.undos.pop();
  }

  /** The newest undo's record of `path`, if any undo covers it. */
  latestFile(path: string): RedoFile | undefined {
    return this.undos[this.latestUndoOf(path)]?.files.find((file) => file.path === path);
  }

  /** Takes `path` out of the newest undo that covers it (dropping that undo if it is left empty). */
  takeFile(path: string): { file: RedoFile; reported: boolean } | undefined {
    const at = this.latestUndoOf(path);
    const undo = this.undos[at];
    const file = undo?.files.find((candidate) => candidate.path === path);
    if (!undo || !file) return undefined;
    undo.files = undo.files.filter((other) => other !== file);
    if (undo.files.length === 0) this.undos.splice(at, 1);
    return { file, reported: undo.reported };
  }

  /** The agent has been told about every undo so far. */
  markReported(): void {
    for (const undo of this.undos) undo.reported = true;
  }

  hunkIds(): string[] {
    return this.undos.flatMap((undo) => undo.files.flatMap((file) => file.hunks.map((hunk) => hunk.id)));
  }

  toJSON(): RedoEntry[] {
    return this.undos.map(copyRedo);
  }

  /** Index of the most recent undo that covers `path`; -1 when none does. */
  private latestUndoOf(path: string): number {
    let at = this.undos.length - 1;
    while (at >= 0 && !this.undos[at]?.files.some((file) => file.path === path)) at--;
    return at;
  }
}

/** A copy that shares the (immutable) texts but none of the mutable arrays and objects. */
function copyRedo(undo: RedoEntry): RedoEntry {
  return {
    reported: undo.reported,
    files: undo.files.map((file) => ({
      ...file,
      toolCallIds: [...file.toolCallIds],
      pending: file.pending.map((hunk) => ({ ...hunk })),
      hunks: file.hunks.map((hunk) => ({ ...hunk })),
    })),
  };
}
