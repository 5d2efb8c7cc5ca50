// One real VS Code with Tandem in it, for a test file: a workspace copied into a temp folder,
// code-server with the packaged .vsix, Chromium on the workbench, and the panel's webview frame.
// Every code-server test file starts one of these in `before` and closes it in `after`,
// itself or through sharedWorkbench.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT, startCodeServer, type CodeServer, type CodeServerOptions } from './code-server';
import { launchBrowser, openWorkbench, webviewFrame, type WorkbenchBrowser } from './workbench';

export const VSIX = join(REPO_ROOT, 'dist', 'tandem.vsix');
export const SAMPLE_WORKSPACE = join(REPO_ROOT, 'scripts', 'sample-workspace');

export interface TempWorkspace {
  tmp: string;
  workspace: string;
}

/**
 * A temp folder holding the workspace: a copy of `copyOf`, or empty. `prefix` names the temp folder,
 * so a leftover one says which file made it.
 */
export function tempWorkspace(prefix: string, copyOf?: string, folderName = 'workspace'): TempWorkspace {
  const tmp = mkdtempSync(join(tmpdir(), `tandem-${prefix}-`));
  const workspace = join(tmp, folderName);
  if (copyOf) cpSync(copyOf, workspace, { recursive: true });
  else mkdirSync(workspace);
  return { tmp, workspace };
}

export interface TandemWorkbenchOptions extends Omit<CodeServerOptions, 'workspace' | 'vsix'> {
  viewport?: { width: number; height: number };
  /** The package to install; dist/tandem.vsix unless a bench compares another build. */
  vsix?: string;
}

export interface TandemWorkbench extends TempWorkspace {
  server: CodeServer;
  browser: WorkbenchBrowser;
  page: Page;
  /** The panel's webview frame as first found; after a reload, find it again with webviewFrame. */
  panel: Frame;
  /** Stops the browser and code-server and removes the temp folder; safe to call twice. */
  close(): Promise<void>;
}

/** code-server on `where.workspace` with the packaged extension, Chromium on it, and the panel found. */
export async function openTandemWorkbench(where: TempWorkspace, options: TandemWorkbenchOptions = {}): Promise<TandemWorkbench> {
  const { viewport, settings, vsix = VSIX, ...serverOptions } = options;
  assert.ok(existsSync(vsix), `${vsix} is missing: run npm run package (npm test does)`);
  let server: CodeServer | undefined;
  let browser: WorkbenchBrowser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.stop();
    browser = undefined;
    server = undefined;
    // An agent the editor started may still be ending and writing its HOME in here.
    rmSync(where.tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  try {
    server = await startCodeServer({ ...serverOptions, workspace: where.workspace, vsix, settings: { 'tandem.revealOnStartup': true, ...settings } });
    browser = await launchBrowser({ viewport: viewport ?? { width: 1500, height: 950 } });
    const page = await openWorkbench(browser, server.url);
    const panel = await webviewFrame(page, '#tandem-root', 60_000);
    return { ...where, server, browser, page, panel, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One workbench for a whole test file whose describes live in sibling modules: opened by `open`
 * in the file's `before`, closed in its `after`. The getter hands it to those describes' hooks
 * and tests.
 */
export function sharedWorkbench(open: () => Promise<TandemWorkbench>): () => TandemWorkbench {
  let tandem: TandemWorkbench | undefined;
  before(async () => {
    tandem = await open();
  });
  after(async () => {
    await tandem?.close();
  });
  return () => {
    assert.ok(tandem, 'the workbench is open');
    return tandem;
  };
}
