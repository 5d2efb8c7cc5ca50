import { relative } from 'node:path';
import type { ReviewRequest, ReviewView } from '../../src/review/pendingChanges';
import type { ChangeLedger } from '../../src/review/changeLedger';
import type { ReviewSource } from '../../src/review/reviewSource';

/**
 * The real change ledger as the panel's review source, the way the editor's controller offers
 * it (paths relative to the workspace as labels, keep and undo acted on the ledger), minus
 * VS Code and the disk: undo's text is not written anywhere.
 */
export function ledgerReviewSource(ledger: ChangeLedger, workspace: string): ReviewSource {
  const act = async ({ action, path, hunkId }: ReviewRequest) => {
    if (action === 'keepHunk' && path && hunkId) ledger.keepHunk(path, hunkId);
    else if (action === 'undoHunk' && path && hunkId) ledger.undoHunk(path, hunkId);
    else if (action === 'keepFile' && path) ledger.keepFile(path);
    else if (action === 'undoFile' && path) ledger.undoFile(path);
    else if (action === 'keepAll') ledger.keepAll();
    else if (action === 'undoAll') ledger.undoAll();
  };
  return {
    view: (): ReviewView => ({ files: ledger.files().map((file) => ({ ...file, label: relative(workspace, file.path) })), canRedo: ledger.canRedo() }),
    onDidChange: (listener) => ledger.onDidChange(listener),
    act,
    takePromptNotes: () => [],
  };
}
