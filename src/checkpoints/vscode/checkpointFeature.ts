import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointService } from '../checkpointService';
import { CheckpointStore, CHECKPOINT_LIMITS } from '../checkpoints';
import { planRestore, type RestoreReader } from '../checkpointsPlan';
import { CheckpointRecorder } from '../checkpointsRecorder';
import { CheckpointRestorer } from '../checkpointsRestore';
import type { Logger } from '../../util/logger';
import { checkpointContent, DirectoryBlobs, readForCheckpoint } from '../checkpointDisk';
import type { ReviewController } from '../../review/vscode/reviewController';
import { ReviewWriter } from '../../review/reviewWriter';
import { type DocumentWriter } from '../../files/documents';
import { STORAGE_KEYS } from '../../contract/ids';

function hasUnsavedText(path: string): boolean {
  return vscode.workspace.textDocuments.some((document) => document.uri.scheme === 'file' && document.uri.fsPath === path && document.isDirty);
}

/**
 * Checkpoints of this workspace: copies in the extension's workspace storage folder (so they
 * survive a window reload and an agent crash, and need no git), the index with Tandem's
 * workspace records, restores written by review's own writer over the editor's documents, paths
 * named as the scope names them. Null without a folder open: there is no workspace storage then,
 * and nothing of the user's to put back.
 */
export function createCheckpoints(context: vscode.ExtensionContext, records: vscode.Memento, review: ReviewController, documents: DocumentWriter, folders: { roots(): readonly string[]; label(path: string): string }, logger: Logger): CheckpointService | null {
  if (!context.storageUri) {
    logger.info('[checkpoints] no folder is open, so messages get no checkpoints');
    return null;
  }
  const store = new CheckpointStore(
    new DirectoryBlobs(join(context.storageUri.fsPath, 'checkpoints')),
    // The index is small (numbers per file and checkpoint); the copies themselves live on disk.
    { read: () => records.get(STORAGE_KEYS.checkpointsIndex), write: (index) => records.update(STORAGE_KEYS.checkpointsIndex, index) },
    CHECKPOINT_LIMITS,
    logger,
  );
  context.subscriptions.push(store);
  const ledger = review.changes;
  const recorder = new CheckpointRecorder(store, { read: checkpointContent }, () => ledger.files().map((file) => file.path));
  const { label } = folders;
  const reader: RestoreReader = { current: (path) => readForCheckpoint(path, folders.roots()), unsaved: hasUnsavedText, label };
  const writer = new ReviewWriter(ledger, documents);
  const restorer = new CheckpointRestorer(store, ledger, (writes) => writer.redo(writes), reader);
  return {
    store,
    recorder,
    plan: (checkpointId) => planRestore(store, checkpointId, reader),
    restore: (plan, keepMine, restoredTo) => restorer.restore(plan, keepMine, restoredTo),
    label,
  };
}
