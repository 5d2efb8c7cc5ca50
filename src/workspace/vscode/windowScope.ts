import * as vscode from 'vscode';
import { createCheckpoints } from '../../checkpoints/vscode/checkpointFeature';
import { EditorDocuments } from '../../files/vscode/editorDocuments';
import { modalFsDecisions } from '../../files/vscode/fsDecisions';
import { createReviewFeature } from '../../review/vscode/reviewFeature';
import type { ReviewController } from '../../review/vscode/reviewController';
import type { createTerminalFeature } from '../../terminals/vscode/terminalFeature';
import type { Logger } from '../../util/logger';
import { createSessionFiles } from '../sessionFiles';
import type { WorkspaceScope } from '../workspaceScope';

/** What the window's scope is made of besides its folders. */
export interface WindowScopeParts {
  context: vscode.ExtensionContext;
  /** Tandem's workspace records: the review ledger and the checkpoint index live there. */
  records: vscode.Memento;
  /** The window's folders, read each time (the one place they come from is the composition root). */
  roots(): readonly string[];
  terminals: ReturnType<typeof createTerminalFeature>;
  logger: Logger;
}

/**
 * The window's workspace as a scope: its folders, the editor's documents, one review ledger and
 * one checkpoint store, and the files and commands its conversations' sessions get. Every
 * conversation of the window works in it today.
 */
export function createWindowScope(parts: WindowScopeParts): { scope: WorkspaceScope; review: ReviewController } {
  const { context, records, roots, terminals, logger } = parts;
  const documents = new EditorDocuments(roots);
  const review = createReviewFeature(context, records, documents, logger);
  const label = (path: string) => vscode.workspace.asRelativePath(path, false);
  const checkpoints = createCheckpoints(context, records, review, documents, { roots, label }, logger);
  // Agents' writes and review's own undo and redo: the checkpoints see both, so neither reads as a hand edit.
  const changes = checkpoints?.recorder.watch(review.feed) ?? review.feed;
  review.watchWrites(changes);
  const scope: WorkspaceScope = {
    name: 'window',
    roots,
    label,
    review,
    checkpoints,
    files: (session) => createSessionFiles(session, {
      roots,
      documents,
      decisions: modalFsDecisions,
      changes,
      // VS Code reloads clean editors from disk by itself; dirty ones keep the user's text.
      onDiskChanged: (paths) => session.logger.debug(`changed on disk by the agent: ${paths.join(', ')}`),
    }),
    commands: (session) => terminals.commands(session, roots),
  };
  return { scope, review };
}
