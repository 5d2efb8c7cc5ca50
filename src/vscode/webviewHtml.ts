import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * The panel document: no inline script, a per-load nonce, and a CSP that lets nothing from the
 * agent load remote content or run script. Images are limited to the extension and data URIs.
 */
export function renderPanelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicons', 'codicon.css')}" id="vscode-codicon-stylesheet" nonce="${nonce}">
<link rel="stylesheet" href="${asset('webview.css')}" nonce="${nonce}">
<title>Tandem</title>
</head>
<body>
<div id="tandem-root" aria-live="polite"></div>
<script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}
