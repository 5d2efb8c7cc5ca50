/**
 * The webview documents and their CSP, without the editor: the extension serves them to its
 * webviews, and the browser tests serve the very same documents, so what they check is the
 * policy users get.
 */
import { englishPanelStrings, PANEL_STRINGS_ATTRIBUTE, type PanelStrings } from '../contract/panelStrings';

export interface PanelDocumentOptions {
  /** The origin the panel's own files come from (a webview's `cspSource`). */
  cspSource: string;
  /** New for every load: only scripts and styles carrying it run. */
  nonce: string;
  /** The address of a file of the built package, by its path inside dist/ (`codicons/codicon.css`). */
  asset: (distPath: string) => string;
}

interface DocumentShape {
  title: string;
  rootId: string;
  /** The root's extra attributes, e.g. `aria-live`. */
  rootAttributes: string;
  script: string;
  /**
   * An ES module, whose chunks load on demand (`import()` of a sibling file in dist/). A module
   * and the modules it imports inherit its nonce, so the policy stays nonce-only.
   */
  module: boolean;
  stylesheets: { path: string; id?: string }[];
  /** Data URIs and the extension's own files only; agent content never loads remote images. */
  images: boolean;
}

/** Nothing from the agent may load remote content or run script. */
function contentSecurityPolicy(cspSource: string, nonce: string, images: boolean): string {
  return [
    "default-src 'none'",
    ...(images ? [`img-src ${cspSource} data:`] : []),
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** No inline script: the bundle is the only script, and it carries the nonce. */
function renderDocument(shape: DocumentShape, { cspSource, nonce, asset }: PanelDocumentOptions): string {
  const styles = shape.stylesheets.map((sheet) => `<link rel="stylesheet" href="${asset(sheet.path)}"${sheet.id ? ` id="${sheet.id}"` : ''} nonce="${nonce}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(cspSource, nonce, shape.images)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
<title>${shape.title}</title>
</head>
<body>
<div id="${shape.rootId}"${shape.rootAttributes}></div>
<script${shape.module ? ' type="module"' : ''} nonce="${nonce}" src="${asset(shape.script)}"></script>
</body>
</html>`;
}

/** JSON in a double-quoted attribute: the four characters HTML would read otherwise are escaped. */
function attributeJson(value: unknown): string {
  return JSON.stringify(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The chat panel, with its texts in the user's language (`strings`, translated by the host). */
export function renderPanelDocument(options: PanelDocumentOptions, strings: PanelStrings = englishPanelStrings): string {
  return renderDocument({
    title: 'Tandem',
    rootId: 'tandem-root',
    rootAttributes: ` aria-live="polite" ${PANEL_STRINGS_ATTRIBUTE}="${attributeJson(strings)}"`,
    script: 'webview.js',
    module: true,
    stylesheets: [{ path: 'codicons/codicon.css', id: 'vscode-codicon-stylesheet' }, { path: 'webview.css' }],
    images: true,
  }, options);
}

/** The frame inspector shows frames as text only: no images at all. */
export function renderInspectorDocument(options: PanelDocumentOptions): string {
  return renderDocument({ title: 'Tandem frames', rootId: 'inspector-root', rootAttributes: '', script: 'inspector.js', module: false, stylesheets: [{ path: 'inspector.css' }], images: false }, options);
}
