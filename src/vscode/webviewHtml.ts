import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { renderPanelDocument } from '../panel/panelDocument';

/** The panel document for this webview: its files come from dist/ through the webview's own URIs. */
export function renderPanelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return renderPanelDocument({
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    asset: (distPath) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...distPath.split('/'))).toString(),
  });
}
