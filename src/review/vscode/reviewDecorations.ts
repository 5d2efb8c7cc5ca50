import * as vscode from 'vscode';
import type { ReviewController } from './reviewController';
import { DisposableBase } from '../../util/disposable';
import { COMMANDS } from '../../contract/ids';

/**
 * Pending hunks in the editor itself: added lines tinted like a diff, removed lines announced
 * after the line above them with their text in the hover, and Keep / Undo / Comment above each hunk.
 */
export class ReviewDecorations extends DisposableBase implements vscode.CodeLensProvider {
  private readonly added = this.register(vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  }));
  private readonly removed = this.register(vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderColor: new vscode.ThemeColor('diffEditor.removedTextBorder'),
    borderStyle: 'none none dashed none',
    borderWidth: '1px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  }));
  private readonly lensesChanged = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(private readonly review: ReviewController) {
    super();
    this.register(review.onDidChangeChanges(() => this.refresh()));
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()));
    this.register(vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this));
    this.refresh();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const file = this.review.changes.file(document.uri.fsPath);
    if (!file) return [];
    return file.hunks.flatMap((hunk) => {
      const line = Math.min(hunk.currentStart, Math.max(0, document.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      const summary = `${hunk.added.length > 0 ? `+${hunk.added.length}` : ''}${hunk.removed.length > 0 ? ` −${hunk.removed.length}` : ''}`.trim();
      return [
        new vscode.CodeLens(range, { title: '$(check) Keep', command: COMMANDS.keepHunk, arguments: [file.path, hunk.id], tooltip: `Keep this change (${summary})` }),
        new vscode.CodeLens(range, { title: '$(discard) Undo', command: COMMANDS.undoHunk, arguments: [file.path, hunk.id], tooltip: `Undo this change (${summary})` }),
        new vscode.CodeLens(range, { title: '$(comment) Comment', command: COMMANDS.commentHunk, arguments: [file.path, hunk.id], tooltip: 'Comment on this change for the agent: sent with your next message' }),
        new vscode.CodeLens(range, { title: file.origin === 'editor' ? 'agent edit' : 'agent edit (written to disk by the agent)', command: '' }),
      ];
    });
  }

  private refresh(): void {
    this.lensesChanged.fire();
    for (const editor of vscode.window.visibleTextEditors) {
      const file = editor.document.uri.scheme === 'file' ? this.review.changes.file(editor.document.uri.fsPath) : undefined;
      const addedRanges: vscode.DecorationOptions[] = [];
      const removedRanges: vscode.DecorationOptions[] = [];
      for (const hunk of file?.hunks ?? []) {
        if (hunk.added.length > 0) {
          addedRanges.push({ range: new vscode.Range(hunk.currentStart, 0, hunk.currentStart + hunk.added.length - 1, 0) });
        }
        if (hunk.removed.length > 0) {
          const anchor = Math.max(0, Math.min(hunk.currentStart + hunk.added.length - 1, editor.document.lineCount - 1));
          const hover = new vscode.MarkdownString();
          hover.appendMarkdown(`**${hunk.removed.length} line${hunk.removed.length === 1 ? '' : 's'} removed by the agent**\n\n`);
          hover.appendCodeblock(hunk.removed.join('\n'), editor.document.languageId);
          removedRanges.push({
            range: new vscode.Range(anchor, 0, anchor, 0),
            hoverMessage: hover,
            renderOptions: { after: { contentText: `  ⌫ ${hunk.removed.length} removed: ${hunk.removed[0]?.trim().slice(0, 60) ?? ''}${hunk.removed.length > 1 ? ' …' : ''}`, color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' } },
          });
        }
      }
      editor.setDecorations(this.added, addedRanges);
      editor.setDecorations(this.removed, removedRanges);
    }
  }
}
