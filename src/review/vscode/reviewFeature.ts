import * as vscode from 'vscode';
import type { DocumentWriter } from '../../files/documents';
import type { Logger } from '../../util/logger';
import { BASE_SCHEME, BaseContentProvider } from './baseContent';
import { ReviewController } from './reviewController';
import { registerReviewCommands } from './reviewCommands';
import { ReviewDecorations } from './reviewDecorations';
import { CONTEXT_KEYS } from '../../contract/ids';

/**
 * Everything review needs in the editor: the ledger controller, decorations and CodeLens,
 * commands and the base-text provider for diffs. Changes reach it through a workspace scope's
 * files (see workspace/vscode/windowScope.ts).
 */
export function createReviewFeature(context: vscode.ExtensionContext, records: vscode.Memento, documents: DocumentWriter, logger: Logger): ReviewController {
  const review = new ReviewController(records, documents, logger);
  const base = new BaseContentProvider(() => review.changes);
  const updateContext = () => {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasPendingChanges, review.changes.files().length > 0);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.canRedoUndo, review.changes.canRedo());
  };
  context.subscriptions.push(
    review,
    new ReviewDecorations(review),
    base,
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, base),
    review.onDidChangeChanges(updateContext),
    review.onDidChangeChanges(() => base.refreshOpen()),
    // A file with nothing pending changed (a restore wrote it): its base is its text, and follows.
    vscode.workspace.onDidChangeTextDocument(({ document }) => {
      if (document.uri.scheme === 'file' && review.changes.baseText(document.uri.fsPath) === undefined) base.refreshOpen(document.uri.fsPath);
    }),
    ...registerReviewCommands(review),
  );
  updateContext();
  return review;
}
