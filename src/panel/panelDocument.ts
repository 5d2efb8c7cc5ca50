/**
 * The panel document and its CSP, without the editor: the extension serves it to its webview, and
 * the browser tests serve the very same document, so what they check is the policy users get.
 */

export interface PanelDocumentOptions {
  /** The origin the panel's own files come from (a webview's `cspSource`). */
  cspSource: string;
  /** New for every load: only scripts and styles carrying it run. */
  nonce: string;
  /** The address of a file of the built package, by its path inside dist/ (`codicons/codicon.css`). */
  asset: (distPath: string) => string;
}

/** Nothing from the agent may load remote content or run script; images only from the extension and data URIs. */
function panelContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** No inline script: the bundle is the only script, and it carries the nonce. */
export function renderPanelDocument({ cspSource, nonce, asset }: PanelDocumentOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${panelContentSecurityPolicy(cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicons/codicon.css')}" id="vscode-codicon-stylesheet" nonce="${nonce}">
<link rel="stylesheet" href="${asset('webview.css')}" nonce="${nonce}">
<title>Tandem</title>
</head>
<body>
<div id="tandem-root" aria-live="polite"></div>
<script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}
