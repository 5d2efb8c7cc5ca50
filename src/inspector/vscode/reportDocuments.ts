import * as vscode from 'vscode';
import { DisposableBase } from '../../util/disposable';


/**
 * Reports (an agent's fidelity report, the usage report) as read-only documents of their own
 * scheme: the editor's Markdown preview shows them, and closing one never asks to save (an
 * untitled document did, named by its escaped first line). One document per name, shown again
 * with the newest text each time it is asked for.
 */
export class ReportDocuments extends DisposableBase implements vscode.TextDocumentContentProvider {
  /** By document: kept while the window lives (a few kilobytes per agent), since the preview may read its document again at any time. */
  private readonly texts = new Map<string, string>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  /** `scheme`: one of its own per kind of report (one provider per scheme). */
  constructor(private readonly scheme: string) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Shows `markdown` in the Markdown preview, as the document `name` (the preview's tab title). */
  async show(name: string, markdown: string): Promise<void> {
    // A slash in the name would make it a folder.
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name.replace(/[\\/]/g, '-')}.md` });
    const shown = this.texts.has(uri.toString());
    this.texts.set(uri.toString(), markdown);
    if (shown) this.changed.fire(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }
}
