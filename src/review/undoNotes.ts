/**
 * What the user undid, per file, until the agent is told (takeUndoSummary), and which of the
 * agent's lines the user edited by hand (takeHandEdits, see handEdits.ts). The agent wrote those
 * lines and will otherwise assume they are still there, so the notes say how many of its
 * changes were undone, when a new file was deleted or a deleted file restored, and where its
 * lines now read otherwise.
 */
import { copyHandEdit, copyTracked, afterUndo, handEditsOf, isHandEdit, readTracked, startTracking, type FileHandEdits, type HandEdit, type LineRun, type TrackedHandEdits } from './handEdits';

export interface NoteCounts {
  undone: number;
  kept: number;
  /** Undos the agent was already told about, brought back since. */
  redone: number;
  /** Hunks still pending after the latest action on the file. */
  pending: number;
  undidCreation: boolean;
  undidDeletion: boolean;
  /** The user's hand edits of the agent's lines, followed since the first one. */
  edited?: TrackedHandEdits;
  /** Hand edits noted before the agent wrote the file again. */
  editedEarlier?: HandEdit[];
}

export type UndoKind = 'hunks' | 'creation' | 'deletion';

export class UndoNotes {
  private readonly byPath = new Map<string, NoteCounts>();

  constructor(entries: readonly [string, NoteCounts][] = []) {
    for (const [path, counts] of entries) this.byPath.set(path, copyCounts(counts, true));
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
      const parts: string[] = [];
      const total = counts.undone + counts.kept + counts.pending;
      if (counts.undone > 0 && counts.undidCreation) parts.push('undid the new file (deleted it)');
      else if (counts.undone > 0 && counts.undidDeletion) parts.push('undid the deletion (restored the file)');
      else if (counts.undone > 0) parts.push(`undid ${counts.undone} of ${changes(total)}`);
      if (counts.redone > 0) parts.push(`brought back ${changes(counts.redone)} undone earlier`);
      if (parts.length > 0) lines.push(`${path}: ${parts.join('; ')}`);
      this.clear(path, counts, 'undos');
    }
    return lines;
  }

  /**
   * The user edited the file by hand from `before` to `after` (`agentLines`: the pending hunks'
   * lines in `before`); followed from the first such edit.
   */
  editedByHand(path: string, before: string, after: string | null, agentLines: readonly LineRun[]): void {
    const tracked = this.byPath.get(path)?.edited;
    if (tracked) tracked.userText = after;
    else this.start(path, startTracking(before, after, agentLines));
  }

  /** The user's review brought lines back (a redo): the file now, which the hand edits are compared with. */
  currentChanged(path: string, now: string | null): void {
    const tracked = this.byPath.get(path)?.edited;
    if (tracked) tracked.userText = now;
  }

  /**
   * The file changed to `now` other than by the user's hand or review (the agent wrote it
   * again, a restore, a reload from disk): the hand edits so far are noted as they are, and
   * following starts over from the next one. Back to the text as the agent left it (the user's
   * Ctrl+Z up to the saved file), there is nothing left to note.
   */
  rebased(path: string, now: string | null): void {
    const counts = this.byPath.get(path);
    if (!counts?.edited) return;
    if (counts.edited.agentText !== now) counts.editedEarlier = handEditsOf(path, counts.edited, counts.editedEarlier)?.edits ?? [];
    delete counts.edited;
    if (counts.editedEarlier?.length === 0) delete counts.editedEarlier;
  }

  /** One hunk undone (its lines `start`, `count` before the undo; `restored`: the base text put back). */
  undoneHunk(path: string, start: number, count: number, restored: string, now: string | null): void {
    const counts = this.byPath.get(path);
    if (counts?.edited) counts.edited = afterUndo(counts.edited, start, count, restored, now);
  }

  /** The whole file went back to its base: no hand edit of the agent's lines is left in it. */
  undoneFile(path: string): void {
    const counts = this.byPath.get(path);
    if (counts) this.clear(path, counts, 'hand edits');
  }

  /** Hand edits for the files `include` accepts (all by default); those are cleared. */
  takeHandEdits(include: (path: string) => boolean = () => true): FileHandEdits[] {
    const files: FileHandEdits[] = [];
    for (const [path, counts] of [...this.byPath]) {
      if (!include(path) || (!counts.edited && !counts.editedEarlier)) continue;
      const file = handEditsOf(path, counts.edited, counts.editedEarlier);
      this.clear(path, counts, 'hand edits');
      if (file) files.push(file);
    }
    return files;
  }

  toJSON(): [string, NoteCounts][] {
    return [...this.byPath].map(([path, counts]) => [path, copyCounts(counts, false)]);
  }

  private start(path: string, tracked: TrackedHandEdits | null): void {
    if (tracked) this.counts(path).edited = tracked;
  }

  private counts(path: string): NoteCounts {
    let counts = this.byPath.get(path);
    if (!counts) {
      counts = { undone: 0, kept: 0, redone: 0, pending: 0, undidCreation: false, undidDeletion: false };
      this.byPath.set(path, counts);
    }
    return counts;
  }

  /** Clears one kind of note of the file; a file with none left is forgotten. */
  private clear(path: string, counts: NoteCounts, what: 'undos' | 'hand edits'): void {
    const left = what === 'undos' ? Boolean(counts.edited || counts.editedEarlier) : counts.undone + counts.kept + counts.redone > 0;
    if (!left) {
      this.byPath.delete(path);
      return;
    }
    if (what === 'undos') Object.assign(counts, { undone: 0, kept: 0, redone: 0, pending: 0, undidCreation: false, undidDeletion: false });
    else {
      delete counts.edited;
      delete counts.editedEarlier;
    }
  }
}

/** A copy that shares no arrays; `checked`: counts read back from storage, whose hand edits are dropped if malformed. */
function copyCounts(counts: NoteCounts, checked: boolean): NoteCounts {
  const { edited, editedEarlier, ...rest } = counts;
  const copy: NoteCounts = { ...rest };
  const tracked = checked ? readTracked(edited) : edited && copyTracked(edited);
  if (tracked) copy.edited = tracked;
  const earlier = Array.isArray(editedEarlier) && (!checked || editedEarlier.every(isHandEdit)) ? editedEarlier.map(copyHandEdit) : undefined;
  if (earlier) copy.editedEarlier = earlier;
  return copy;
}

function changes(count: number): string {
  return `${count} change${count === 1 ? '' : 's'}`;
}
