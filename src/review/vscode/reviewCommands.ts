import * as vscode from 'vscode';
import type { HunkView } from '../changeLedger';
import { baseUri } from './baseContent';
import type { ReviewController } from './reviewController';
import { COMMANDS } from '../../contract/ids';

/** The pending hunk under the active editor's cursor, else the next one below it, else the file's last. */
function hunkAtCursor(review: ReviewController): { path: string; hunk: HunkView } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const path = editor.document.uri.fsPath;
  const line = editor.selection.active.line;
  const hunks = review.changes.file(path)?.hunks ?? [];
  const hunk = hunks.find((candidate) => line >= candidate.currentStart && line <= candidate.currentStart + Math.max(0, candidate.currentLineCount - 1))
    ?? hunks.find((candidate) => candidate.currentStart >= line) ?? hunks.at(-1);
  return hunk ? { path, hunk } : undefined;
}

/** The hunk a command names (a CodeLens passes it), else the one at the cursor (the palette, a key). */
export function targetHunk(review: ReviewController, path?: string, hunkId?: string): { path: string; hunkId: string } | undefined {
  if (path && hunkId) return { path, hunkId };
  const at = hunkAtCursor(review);
  return at && { path: at.path, hunkId: at.hunk.id };
}

async function revealHunk(direction: 1 | -1, review: ReviewController): Promise<void> {
  const files = review.changes.files();
  if (files.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No pending agent changes.'));
    return;
  }
  const editor = vscode.window.activeTextEditor;
  const here = editor ? { path: editor.document.uri.fsPath, line: editor.selection.active.line } : null;
  // A deleted file has no buffer to go to: its hunks are shown in the file as it was.
  const stops = files.flatMap((file) => file.hunks.map((hunk) => (file.status === 'deleted'
    ? { path: file.path, line: hunk.baseStart, uri: baseUri(file.path) }
    : { path: file.path, line: hunk.currentStart, uri: vscode.Uri.file(file.path) })));
  const index = here ? stops.findIndex((stop) => stop.path === here.path && (direction > 0 ? stop.line > here.line : stop.line >= here.line)) : -1;
  const before = here ? stops.filter((stop, i) => (index >= 0 ? i < index : stop.path === here.path && stop.line < here.line)) : [];
  const target = direction > 0 ? (index >= 0 ? stops[index] : stops[0]) : (before.at(-1) ?? stops.at(-1));
  if (!target) return;
  const shown = await vscode.window.showTextDocument(target.uri);
  const position = new vscode.Position(target.line, 0);
  shown.selection = new vscode.Selection(position, position);
  shown.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** Review commands for the editor, the panel and keyboard shortcuts. */
export function registerReviewCommands(review: ReviewController): vscode.Disposable[] {
  const act = (action: Parameters<ReviewController['act']>[0]['action'], path: string | null = null, hunkId: string | null = null) => review.act({ action, path, hunkId });
  return [
    vscode.commands.registerCommand(COMMANDS.keepHunk, (path?: string, hunkId?: string) => {
      const target = targetHunk(review, path, hunkId);
      return target && act('keepHunk', target.path, target.hunkId);
    }),
    vscode.commands.registerCommand(COMMANDS.undoHunk, (path?: string, hunkId?: string) => {
      const target = targetHunk(review, path, hunkId);
      return target && act('undoHunk', target.path, target.hunkId);
    }),
    vscode.commands.registerCommand(COMMANDS.keepAllChanges, () => act('keepAll')),
    vscode.commands.registerCommand(COMMANDS.undoAllChanges, () => act('undoAll')),
    vscode.commands.registerCommand(COMMANDS.redoUndo, () => act('redoUndo')),
    vscode.commands.registerCommand(COMMANDS.nextChange, () => revealHunk(1, review)),
    vscode.commands.registerCommand(COMMANDS.previousChange, () => revealHunk(-1, review)),
    vscode.commands.registerCommand(COMMANDS.openChange, async (path: string) => {
      const file = review.changes.file(path);
      if (!file || file.status === 'deleted') return vscode.window.showTextDocument(baseUri(path));
      const shown = await vscode.window.showTextDocument(vscode.Uri.file(path));
      const first = file.hunks[0];
      if (first) shown.revealRange(new vscode.Range(first.currentStart, 0, first.currentStart, 0), vscode.TextEditorRevealType.InCenter);
      return shown;
    }),
    vscode.commands.registerCommand(COMMANDS.reviewChanges, async () => {
      const files = review.changes.files();
      if (files.length === 0) return vscode.window.showInformationMessage(vscode.l10n.t('No pending agent changes.'));
      const resources = files.map((file) => [vscode.Uri.file(file.path), file.status === 'created' ? undefined : baseUri(file.path), file.status === 'deleted' ? undefined : vscode.Uri.file(file.path)]);
      return vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Tandem: pending agent changes'), resources);
    }),
  ];
}
