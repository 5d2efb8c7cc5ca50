/**
 * What the user undid, per file, until the agent is told (takeUndoSummary). The agent wrote
 * those lines and will otherwise assume they are still there, so the notes say how many of its
 * changes were undone, and when a new file was deleted or a deleted file restored.
 */

export interface NoteCounts {
  undone: number;
  kept: number;
  /** Undos the agent was already told about, brought back since. */
  redone: number;
  /** Hunks still pending after the latest action on the file. */
  pending: number;
  undidCreation: boolean;
  undidDeletion: boolean;
}

export type UndoKind = 'hunks' | 'creation' | 'deletion';

export class UndoNotes {
  private readonly byPath = new Map<string, NoteCounts>();

  constructor(entries: readonly [string, NoteCounts][] = []) {
    for (const [path, counts] of entries) this.byPath.set(path, { ...counts });
  }

  kept(path: string, count: number, pending: number): void {
    const counts = this.counts(path);
    counts.kept += count;
    counts.pending = pending;
  }

  undone(path: string, count: number, pending: number, kind: UndoKind): void {
    const counts = this.counts(path);
    counts.undone += count;
    counts.pending = pending;
    if (kind === 'creation') counts.undidCreation = true;
    if (kind === 'deletion') counts.undidDeletion = true;
  }

  /** A redo of an undo the agent has not heard of cancels it out; otherwise it is news too. */
  redone(path: string, count: number, pending: number, alreadyReported: boolean): void {
    const counts = this.counts(path);
    counts.pending = pending;
    if (alreadyReported) {
      counts.redone += count;
      return;
    }
    counts.undone = Math.max(0, counts.undone - count);
    if (counts.undone === 0) {
      counts.undidCreation = false;
      counts.undidDeletion = false;
    }
  }

  /** Notes for the files `include` accepts (all by default); those are cleared. */
  take(include: (path: string) => boolean = () => true): string[] {
    const lines: string[] = [];
    for (const [path, counts] of [...this.byPath]) {
      if (!include(path)) continue;
      this.byPath.delete(path);
      const parts: string[] = [];
      const total = counts.undone + counts.kept + counts.pending;
      if (counts.undone > 0 && counts.undidCreation) parts.push('undid the new file (deleted it)');
      else if (counts.undone > 0 && counts.undidDeletion) parts.push('undid the deletion (restored the file)');
      else if (counts.undone > 0) parts.push(`undid ${counts.undone} of ${changes(total)}`);
      if (counts.redone > 0) parts.push(`brought back ${changes(counts.redone)} undone earlier`);
      if (parts.length > 0) lines.push(`${path}: ${parts.join('; ')}`);
    }
    return lines;
  }

  toJSON(): [string, NoteCounts][] {
    return [...this.byPath].map(([path, counts]) => [path, { ...counts }]);
  }

  private counts(path: string): NoteCounts {
    let counts = this.byPath.get(path);
    if (!counts) {
      counts = { undone: 0, kept: 0, redone: 0, pending: 0, undidCreation: false, undidDeletion: false };
      this.byPath.set(path, counts);
    }
    return counts;
  }
}

function changes(count: number): string {
  return `${count} change${count === 1 ? '' : 's'}`;
}
