import * as vscode from 'vscode';
import type { FsPort } from '../../acp/clientPorts';
import { createSessionFs } from '../sessionFs';
import type { FsSessionContext } from '../fsContext';
import type { Disposable } from '../../util/disposable';
import type { Logger } from '../../util/logger';
import { EditorDocuments } from '../../files/vscode/editorDocuments';
import { modalFsDecisions } from '../../files/vscode/fsDecisions';
import type { CheckpointService } from '../../checkpoints/panel/checkpointPanel';
import { BASE_SCHEME, BaseContentProvider } from './baseContent';
import { createCheckpoints } from '../../checkpoints/vscode/checkpointFeature';
import { ReviewController } from './reviewController';
import { registerReviewCommands } from './reviewCommands';
import { ReviewDecorations } from './reviewDecorations';

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
}

/**
 * Everything review needs in the editor: the ledger controller, decorations and CodeLens,
 * commands, the base-text provider for diffs, and the per-session fs service and disk tracker.
 */
export function createReviewFeature(context: vscode.ExtensionContext, records: vscode.Memento, logger: Logger): {
  review: ReviewController;
  createFs(session: FsSessionContext): FsPort & Disposable;
  checkpoints: CheckpointService | null;
} {
  const documents = new EditorDocuments(workspaceRoots);
  const review = new ReviewController(records, documents, logger);
  const checkpoints = createCheckpoints(context, records, review, documents, logger);
  const base = new BaseContentProvider(() => review.changes);
  const updateContext = () => {
    void vscode.commands.executeCommand('setContext', 'tandem.hasPendingChanges', review.changes.files().length > 0);
    void vscode.commands.executeCommand('setContext', 'tandem.canRedoUndo', review.changes.canRedo());
  };
  context.subscriptions.push(
    review,
    new ReviewDecorations(review),
    base,
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, base),
    review.onDidChangeChanges(updateContext),
    review.onDidChangeChanges(() => base.refreshOpen()),
    ...registerReviewCommands(review),
  );
  updateContext();

  const createFs = (session: FsSessionContext): FsPort & Disposable => createSessionFs(session, {
    roots: workspaceRoots,
    documents,
    decisions: modalFsDecisions,
    changes: checkpoints?.recorder.watch(review.feed) ?? review.feed,
    // VS Code reloads clean editors from disk by itself; dirty ones keep the user's text.
    onDiskChanged: (paths) => session.logger.debug(`changed on disk by the agent: ${paths.join(', ')}`),
  });
  return { review, createFs, checkpoints };
}
