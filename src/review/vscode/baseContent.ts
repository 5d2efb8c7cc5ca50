import * as vscode from 'vscode';
import type { ChangeLedger } from '../changeLedger';
import { withoutBom } from '../../files/textContent';
import { describeBytes } from '../contentBytes';
import { openDocument } from '../../files/vscode/editorDocuments';

export const BASE_SCHEME = 'tandem-base';

export function baseUri(path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BASE_SCHEME, path, query: `t=${Date.now()}` });
}

/**
 * Serves a file's text from before the agent's pending changes, for diff editors. A file with no
 * pending change (kept, undone, or never changed) has no "before": its base is its current text, so
 * a diff of it shows nothing, even in an editor restored after a reload. Open bases follow the
 * review: a kept hunk joins the base, and the diff shows only what is still pending.
 */
export class BaseContentProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly ledger: () => ChangeLedger) {}

  provideTextDocumentContent(uri: vscode.Uri): string | Thenable<string> {
    return this.pendingBase(uri.path) ?? currentText(uri.path);
  }

  /**
   * The review changed, or (`path`) a file did: each open base whose text is no longer its file's
   * base is provided again. The base of a file with nothing pending is its current text, so it
   * follows every change of the file (a restore, "Redo restore"), not only the review's.
   */
  refreshOpen(path?: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== BASE_SCHEME || (path !== undefined && document.uri.path !== path)) continue;
      // Undefined: nothing pending and no buffer open, so only the disk knows; provided again.
      const base = this.pendingBase(document.uri.path) ?? openText(document.uri.path);
      if (base !== document.getText()) this.changed.fire(document.uri);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** The text before the pending change, or undefined when the file has none. */
  private pendingBase(path: string): string | undefined {
    const ledger = this.ledger();
    const text = ledger.baseText(path);
    if (text === undefined) return undefined;
    // Bytes are not text a diff editor can show; say what they are instead.
    if (ledger.encodingOf(path) === 'bytes') return `(The file before the agent's change: ${describeBytes(text ?? '')}.)`;
    return withoutBom(text ?? '');
  }
}

/** The file's text in an open editor buffer (unsaved edits included), if one is open. */
function openText(path: string): string | undefined {
  return openDocument(path)?.getText();
}

/** What the file holds now: its open buffer, or the disk (UTF-8, a BOM dropped); empty when it is gone. */
async function currentText(path: string): Promise<string> {
  const open = openText(path);
  if (open !== undefined) return open;
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
  } catch {
    return '';
  }
}
