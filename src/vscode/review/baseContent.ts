import * as vscode from 'vscode';
import type { ChangeLedger } from '../../review/changeLedger';
import { describeBytes } from '../../review/contentBytes';

export const BASE_SCHEME = 'tandem-base';

export function baseUri(path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BASE_SCHEME, path, query: `t=${Date.now()}` });
}

/** Serves a file's text from before the agent's pending changes, for diff editors. */
export class BaseContentProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly ledger: () => ChangeLedger) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const ledger = this.ledger();
    const text = ledger.baseText(uri.path) ?? '';
    // Bytes are not text a diff editor can show; say what they are instead.
    if (ledger.encodingOf(uri.path) === 'bytes') return `(The file before the agent's change: ${describeBytes(text)}.)`;
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
