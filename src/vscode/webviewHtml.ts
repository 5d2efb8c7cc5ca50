import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { englishPanelStrings, type PanelStrings } from '../contract/panelStrings';
import { renderPanelDocument } from '../panel/panelDocument';

/** The panel's texts in the editor's display language, from the l10n bundle (English where it has none). */
function panelStrings(): PanelStrings {
  return Object.fromEntries(Object.entries(englishPanelStrings).map(([key, english]) => [key, vscode.l10n.t(english)])) as PanelStrings;
}

/** The panel document for this webview: its files come from dist/ through the webview's own URIs. */
export function renderPanelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return renderPanelDocument({
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    asset: (distPath) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...distPath.split('/'))).toString(),
  }, panelStrings());
}
