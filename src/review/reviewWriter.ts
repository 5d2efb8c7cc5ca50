import type { ChangeLedger, FileWrite } from './changeLedger';
import { errorMessage } from '../redaction/redactedLog';
import type { DocumentWriter } from '../files/documents';

export interface WriteFailure {
  path: string;
  reason: string;
}

/** What runs around each of review's writes of a file (the change feed, and the checkpoints when there are any). */
export interface WriteWatch {
  agentWrite(path: string, write: () => Promise<void>): Promise<void>;
}

/**
 * The documents as review writes to them: each write passes through `watch()`, read at every
 * write, so the checkpoints wired in after review see Tandem's own undo and redo, and a file
 * holding what Tandem wrote is not taken for someone else's change.
 */
export function watchedDocuments(documents: DocumentWriter, watch: () => WriteWatch): DocumentWriter {
  return {
    restore: (path, text) => watch().agentWrite(path, () => documents.restore(path, text)),
    writeExact: (path, content, replaces) => watch().agentWrite(path, () => documents.writeExact(path, content, replaces)),
  };
}

/** Content held as bytes is latin1, one character per byte. */
function bytesOf(content: string | null): Uint8Array | null {
  return content === null ? null : Buffer.from(content, 'latin1');
}

/**
 * Writes what keep/undo/redo return, where each change came from: through the document for
 * the editor's, exact content to disk for the agent's own. An undo whose write fails (a
 * read-only file, a path that became a folder) leaves the agent's change on disk, so the
 * ledger takes it back as pending: nothing the user has not seen undone is marked undone.
 */
export class ReviewWriter {
  constructor(private readonly ledger: ChangeLedger, private readonly documents: DocumentWriter) {}

  /** The files whose undo could not be written; they are pending again, exactly as before. */
  async undo(writes: readonly FileWrite[]): Promise<WriteFailure[]> {
    const failures = await this.writeAll(writes);
    if (failures.length > 0) this.ledger.cancelUndo(failures.map((failure) => failure.path));
    return failures;
  }

  /** The files whose redo could not be written (they still hold the undone text). */
  redo(writes: readonly FileWrite[]): Promise<WriteFailure[]> {
    return this.writeAll(writes);
  }

  private async writeAll(writes: readonly FileWrite[]): Promise<WriteFailure[]> {
    const failures: WriteFailure[] = [];
    for (const write of writes) {
      try {
        await this.writeOne(write);
      } catch (error) {
        failures.push({ path: write.path, reason: errorMessage(error) });
      }
    }
    return failures;
  }

  private async writeOne(write: FileWrite): Promise<void> {
    // Bytes go back byte for byte, and only over the content they were taken from.
    if (write.encoding === 'bytes') return this.documents.writeExact(write.path, bytesOf(write.text), bytesOf(write.replaces ?? null));
    if (this.ledger.originOf(write.path) === 'editor' && write.text !== null) return this.documents.restore(write.path, write.text);
    return this.documents.writeExact(write.path, write.text);
  }
}

/**
 * One sentence for the user on writes that failed: of an undo (their changes stay pending) or a
 * redo; `tried`: how many files the action wrote, so the sentence says whether others went fine.
 */
export function writeFailureMessage(failures: readonly WriteFailure[], label: (path: string) => string, action: 'undo' | 'redo', tried: number): string {
  const files = failures.map((failure) => `${label(failure.path)} (${failure.reason})`);
  const list = files.length > 1 ? `${files.slice(0, -1).join(', ')} and ${files[files.length - 1]}` : (files[0] ?? '');
  const several = failures.length > 1;
  const changes = several ? 'changes' : 'change';
  if (action === 'redo') return `Tandem could not bring back the agent's ${changes} to ${list}: ${several ? 'those files keep' : 'the file keeps'} the undone text.`;
  const others = tried > failures.length ? '; the other files were undone' : '';
  return `Tandem could not undo the agent's ${changes} to ${list}: ${several ? 'they are' : 'it is'} still on disk and still pending${others}.`;
}
