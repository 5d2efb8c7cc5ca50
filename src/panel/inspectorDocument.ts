import type { PanelDocumentOptions } from './panelDocument';

/** The inspector shows frames as text only: no images, no fonts beyond the theme's, one script. */
function inspectorContentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `style-src ${cspSource} 'nonce-${nonce}'`, `font-src ${cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
}

/** The frame inspector's document: its own bundle and stylesheet, under the same rules as the chat panel's. */
export function renderInspectorDocument({ cspSource, nonce, asset }: PanelDocumentOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${inspectorContentSecurityPolicy(cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('inspector.css')}" nonce="${nonce}">
<title>Tandem frames</title>
</head>
<body>
<div id="inspector-root"></div>
<script nonce="${nonce}" src="${asset('inspector.js')}"></script>
</body>
</html>`;
}
