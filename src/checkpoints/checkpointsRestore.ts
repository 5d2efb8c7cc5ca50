/**
 * Runs a restore the user saw and agreed to. It is an ordinary write of earlier content against
 * the current bytes: first a restore point keeps what every file about to change holds now (so
 * "Redo restore" is a restore to that point), then the files are written by review's own write
 * path, byte for byte and only over the content the preview saw. Pending review follows: a
 * file's pending change now ends in the restored content.
 */
import { exactText } from '../files/textContent';
import type { ChangeLedger, FileWrite } from '../review/changeLedger';
import type { Checkpoint, CheckpointStore } from './checkpoints';
import type { PlannedFile, RestorePlan, RestoreReader } from './checkpointsPlan';
import { sha256 } from './checkpointsIndex';
import { bytesToLatin1 } from '../review/contentBytes';

export interface RestoreSkip {
  path: string;
  reason: string;
}

/** Writes by review's write path (the review writer's redo: no side effects on the ledger); what failed, with why. */
export type RestoreWriter = (writes: readonly FileWrite[]) => Promise<RestoreSkip[]>;

export interface RestoreOutcome {
  /** Where "Redo restore" goes back to; null when nothing was written. */
  restorePoint: Checkpoint | null;
  written: string[];
  /** Files left as they are, each with why (the user kept them, they changed after the preview, a write failed). */
  skipped: RestoreSkip[];
}

interface ReadyFile {
  file: PlannedFile;
  now: Uint8Array | null;
  then: Uint8Array | null;
}

/**
 * Unsaved text in an editor is replaced through that editor's document, so the user's text stays
 * on its undo stack (Ctrl+Z); everything else goes to disk byte for byte, and only over the bytes seen now.
 */
function restoreWrite({ file, now, then }: ReadyFile): FileWrite {
  const text = then === null ? null : exactText(then);
  if (file.unsaved && (then === null || text !== null)) return { path: file.path, text };
  return { path: file.path, text: then === null ? null : bytesToLatin1(then), encoding: 'bytes', replaces: now === null ? null : bytesToLatin1(now) };
}

export class CheckpointRestorer {
  constructor(
    private readonly store: CheckpointStore,
    private readonly ledger: ChangeLedger,
    private readonly write: RestoreWriter,
    private readonly reader: RestoreReader,
  ) {}

  /** `keepMine`: files with the user's own changes they keep as they are; `label`: what is restored to, for the restore point. */
  async restore(plan: RestorePlan, keepMine: ReadonlySet<string>, label: string): Promise<RestoreOutcome> {
    const kept = plan.files.filter((file) => file.handEdit !== null && keepMine.has(file.path));
    const skipped: RestoreSkip[] = kept.map((file) => ({ path: file.path, reason: 'you kept your version' }));
    const ready: ReadyFile[] = [];
    const checks = await Promise.all(plan.files.filter((file) => !kept.includes(file)).map((file) => this.recheck(file)));
    for (const checked of checks) {
      if ('reason' in checked) skipped.push(checked);
      else ready.push(checked);
    }
    if (ready.length === 0) return { restorePoint: null, written: [], skipped };
    const restorePoint = this.store.begin('restore', null, `before restoring to “${label}”`, plan.checkpointId);
    for (const { file, now } of ready) this.store.noteBefore(file.path, now);
    const failures = await this.write(ready.map(restoreWrite));
    const failed = new Set(failures.map((failure) => failure.path));
    const written = ready.filter(({ file }) => !failed.has(file.path));
    for (const { file, then } of written) {
      this.store.noteLeft(file.path, then);
      this.followInReview(file.path, then);
    }
    if (written.length > 0) this.store.markRestored(restorePoint);
    return { restorePoint: written.length > 0 ? restorePoint : null, written: written.map(({ file }) => file.path), skipped: [...skipped, ...failures] };
  }

  /** The file must still be what the preview showed, and its copy still readable. */
  private async recheck(file: PlannedFile): Promise<ReadyFile | RestoreSkip> {
    const current = await this.reader.current(file.path);
    if (current.kind === 'unusable') return { path: file.path, reason: current.reason };
    const now = current.kind === 'file' ? current.bytes : null;
    if ((now === null ? null : sha256(now)) !== file.currentHash || this.reader.unsaved(file.path) !== file.unsaved) {
      return { path: file.path, reason: 'it changed after the preview; look again before restoring it' };
    }
    const then = file.target.kind === 'bytes' ? await this.store.content(file.target) : null;
    if (file.target.kind === 'bytes' && then === null) return { path: file.path, reason: 'the copy Tandem kept of it is missing or damaged' };
    return { file, now, then };
  }

  /** A pending change of the file now ends in the restored content (and drops out where that is its base). */
  private followInReview(path: string, then: Uint8Array | null): void {
    const encoding = this.ledger.encodingOf(path);
    if (encoding === undefined) return;
    if (encoding === 'bytes') return this.ledger.updateCurrent(path, then === null ? null : bytesToLatin1(then));
    const text = then === null ? null : exactText(then);
    if (then === null || text !== null) return this.ledger.updateCurrent(path, text);
    // Text under review became content that is not text: the pending change turns into a whole-file one.
    this.ledger.record(path, { before: null, after: bytesToLatin1(then), origin: this.ledger.originOf(path) ?? 'disk', encoding: 'bytes' });
  }
}

function listed(paths: readonly string[], label: (path: string) => string): string {
  const shown = paths.slice(0, 5).map(label);
  const more = paths.length > shown.length ? ` and ${paths.length - shown.length} more` : '';
  return `${shown.join(', ')}${more}`;
}

/** One notice for the thread: what was restored, what was left as it is and why, and how to take it back. */
export function restoreSummary(outcome: RestoreOutcome, problems: readonly string[], label: (path: string) => string, restoredTo: string): string {
  const { written, skipped } = outcome;
  const parts: string[] = [];
  if (written.length > 0) {
    parts.push(`Restored ${written.length} ${written.length === 1 ? 'file' : 'files'} to how ${written.length === 1 ? 'it was' : 'they were'} ${restoredTo}: ${listed(written, label)}. "Redo restore" brings back what ${written.length === 1 ? 'it' : 'they'} held.`);
  } else {
    parts.push(`Nothing was restored ${restoredTo}.`);
  }
  if (skipped.length > 0) parts.push(`Left as ${skipped.length === 1 ? 'it is' : 'they are'}: ${skipped.map((skip) => `${label(skip.path)} (${skip.reason})`).join('; ')}.`);
  return [...parts, ...problems].join(' ');
}
