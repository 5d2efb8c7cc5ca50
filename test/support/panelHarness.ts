// The panel's real webview bundle (dist/webview.js + webview.css) in Debian's Chromium, without
// VS Code: a stub `acquireVsCodeApi`, the extension's own panel document and CSP, and a
// network that ends at the bundle (every other request is refused and recorded). Fast enough
// for UI tests of the panel and for measuring it; code-server remains the proof in a real editor.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parseWebviewMessage, type HostToWebview, type WebviewToHost } from '../../src/contract/messages';
import type { ChatPresenter } from '../../src/panel/chatPresenter';
import type { PanelStrings } from '../../src/contract/panelStrings';
import { renderPanelDocument } from '../../src/panel/panelDocument';
import { REPO_ROOT } from './code-server';
import { launchBrowser, type WorkbenchBrowser } from './workbench';

const ORIGIN = 'http://tandem.panel';
const DIST = join(REPO_ROOT, 'dist');

export interface PanelHarness {
  page: Page;
  /** Every message the panel sent to its host, in order. */
  sent: WebviewToHost[];
  /** Requests the page tried to make outside the bundle (remote images, scripts...). */
  blockedRequests: string[];
  /** Script errors and CSP violations the page reported. */
  pageErrors: string[];
  post(message: HostToWebview): Promise<void>;
  /** Routes the panel's messages to a presenter and the presenter's to the panel. */
  connect(presenter: () => ChatPresenter): (message: HostToWebview) => void;
  close(): Promise<void>;
}

/** What VS Code gives a webview, installed before any script of the document runs (the CSP does not apply to it). */
const STUB = `
  (() => {
    let state;
    window.acquireVsCodeApi = () => ({
      postMessage: (message) => window.__tandemSent(JSON.stringify(message)),
      getState: () => state,
      setState: (next) => { state = next; },
    });
  })();
`;

const contentTypes: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };

/** `strings`: the panel's texts as the host would translate them (English by default). */
export async function openPanel(options: { browser?: WorkbenchBrowser; viewport?: { width: number; height: number }; strings?: PanelStrings } = {}): Promise<PanelHarness> {
  if (!existsSync(join(DIST, 'webview.js'))) throw new Error('dist/webview.js is missing: run npm run build (npm test builds the package first)');
  const browser = options.browser ?? (await launchBrowser({ viewport: options.viewport ?? { width: 480, height: 800 } }));
  const ownBrowser = !options.browser;
  const page = await browser.context.newPage();
  const sent: WebviewToHost[] = [];
  const blockedRequests: string[] = [];
  const pageErrors: string[] = [];
  const listeners = new Set<(message: WebviewToHost) => void>();
  const nonce = randomBytes(16).toString('base64');
  await page.exposeBinding('__tandemSent', (_source, json: string) => {
    const parsed = parseWebviewMessage(JSON.parse(json));
    if (!parsed.ok) {
      pageErrors.push(`invalid message from the panel: ${parsed.error}`);
      return;
    }
    sent.push(parsed.message);
    for (const listener of listeners) listener(parsed.message);
  });
  await page.addInitScript(STUB);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) {
      blockedRequests.push(route.request().url());
      await route.abort('blockedbyclient');
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      await route.fulfill({ status: 200, contentType: 'text/html', body: renderPanelDocument({ cspSource: ORIGIN, nonce, asset: (distPath) => `${ORIGIN}/${distPath}` }, options.strings) });
      return;
    }
    const file = join(DIST, url.pathname.replace(/^\/+/, ''));
    if (!file.startsWith(DIST) || !existsSync(file)) {
      await route.fulfill({ status: 404, body: '' });
      return;
    }
    await route.fulfill({ status: 200, contentType: contentTypes[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream', body: readFileSync(file) });
  });
  await page.goto(`${ORIGIN}/`);
  await page.locator('#tandem-root .composer').waitFor({ timeout: 15_000 });
  const post = async (message: HostToWebview) => {
    await page.evaluate((data) => window.postMessage(data, '*'), message);
  };
  return {
    page, sent, blockedRequests, pageErrors, post,
    connect(presenter) {
      listeners.add((message) => void presenter().handle(message));
      // The panel said `ready` as it loaded, before anyone listened.
      if (sent.some((message) => message.type === 'ready')) setTimeout(() => void presenter().handle({ type: 'ready' }), 0);
      return (message) => void post(message).catch(() => undefined);
    },
    close: async () => {
      await page.close().catch(() => undefined);
      if (ownBrowser) await browser.close();
    },
  };
}
