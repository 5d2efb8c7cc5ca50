import * as vscode from 'vscode';
import { DisposableBase } from '../../util/disposable';

const REPORT_SCHEME = 'tandem-report';

/**
 * Fidelity reports as read-only documents of their own scheme: the editor's Markdown preview shows
 * them, and closing one never asks to save (an untitled document did, named by its escaped first
 * line). One document per agent, shown again with the newest report each time it is asked for.
 */
export class ReportDocuments extends DisposableBase implements vscode.TextDocumentContentProvider {
  /** By document: kept while the window lives (a few kilobytes per agent), since the preview may read its document again at any time. */
  private readonly texts = new Map<string, string>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Shows `markdown` as the report of `agentLabel`, in the Markdown preview. */
  async show(agentLabel: string, markdown: string): Promise<void> {
    // The name is the preview's tab title; a slash in the label would make it a folder.
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/Fidelity report, ${agentLabel.replace(/[\\/]/g, '-')}.md` });
    const shown = this.texts.has(uri.toString());
    this.texts.set(uri.toString(), markdown);
    if (shown) this.changed.fire(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }
}
