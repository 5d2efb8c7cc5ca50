/**
 * Drives Tandem's panel in code-server as a user does, for the suites and benches that check
 * the workspace as bytes: send a message, allow what the agent asks, wait for the turn to end,
 * poll a file until its sha256 is the one wanted, hand the bytes agent (test/e2e/reviewBytesAgent.ts)
 * its request files. Every wait is bounded.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { BytesRequest } from '../e2e/reviewBytesAgent';
import { sha256 } from './hashes';
import { REPO_ROOT } from './code-server';
import { send } from './panelUser';
import { tsxLoader } from './scriptedAgentSpec';
import { openTandemWorkbench, tempWorkspace } from './tandemWorkbench';

export const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Where two byte strings first differ, in hex, for a failure message. */
export function difference(got: Buffer | null, want: Buffer | null): string {
  if (got === null || want === null) return got === null ? 'the file is missing' : 'the file should not exist';
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  return `${got.length} bytes, want ${want.length}; first difference at byte ${i}: got ${got.subarray(Math.max(0, i - 4), i + 8).toString('hex')}, want ${want.subarray(Math.max(0, i - 4), i + 8).toString('hex')}`;
}

type BytesEntry = BytesRequest['files'][number];

export class PanelDriver {
  private requests = 0;

  /** `panel`: the chat webview's frame (replace it after a reload); `scratch`: where request files go. */
  constructor(readonly page: Page, public panel: Frame, readonly workspace: string, private readonly scratch: string) {}

  at(name: string): string {
    return join(this.workspace, name);
  }

  /** The file's bytes, or null when there is none. */
  onDisk(name: string): Buffer | null {
    return existsSync(this.at(name)) ? readFileSync(this.at(name)) : null;
  }

  /** Polls until the file holds exactly `want` (null: absent), then checks it by sha256. */
  async expectBytes(name: string, want: Buffer | null, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (sha256(this.onDisk(name)) !== sha256(want) && Date.now() < deadline) await this.page.waitForTimeout(100);
    assert.equal(sha256(this.onDisk(name)), sha256(want), `${name}: ${difference(this.onDisk(name), want)}`);
  }

  /** Polls a condition of the workbench, bounded. */
  async until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await this.page.waitForTimeout(150);
    }
  }

  /** Sends `text` and waits for its turn to end, allowing every permission the agent asks on the way. */
  async turn(text: string, timeoutMs = 90_000): Promise<void> {
    const ended = this.panel.locator('.turn-ended');
    const before = await ended.count();
    await send(this.panel, text);
    const allow = this.panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
    const deadline = Date.now() + timeoutMs;
    while ((await ended.count()) <= before) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for the turn for ${JSON.stringify(text.slice(0, 40))} to end`);
      if (await allow.first().isVisible().catch(() => false)) await allow.first().click({ timeout: 2_000 }).catch(() => undefined);
      else await this.page.waitForTimeout(200);
    }
    const reason = await ended.nth(before).getAttribute('data-stop-reason');
    if (reason !== 'end_turn') {
      const said = await this.panel.locator('.notice, .turn-ended, .tool-card').allInnerTexts();
      assert.fail(`the turn for ${JSON.stringify(text.slice(0, 40))} ended ${reason}; the thread ends with ${JSON.stringify(said.slice(-4))}`);
    }
  }

  /** A request file for the bytes agent (the prompt names it). */
  request(files: BytesEntry[]): string {
    const file = join(this.scratch, `request-${++this.requests}.json`);
    writeFileSync(file, JSON.stringify({ files }));
    return file;
  }

  /** A bytes-disk entry: the agent writes these exact bytes itself (null deletes the file). */
  diskEntry(name: string, bytes: Buffer | null): BytesEntry {
    return { path: this.at(name), bytes: bytes === null ? null : bytes.toString('base64') };
  }

  /** A bytes-editor entry: the agent writes this text through the editor (fs/write_text_file). */
  editorEntry(name: string, text: string): BytesEntry {
    return { path: this.at(name), text };
  }

  changesBar() {
    return this.panel.locator('#changes-bar');
  }

  /** Waits until the changes bar says `count` files are pending (0: none). */
  async pendingFiles(count: number, timeoutMs = 15_000): Promise<void> {
    const text = count === 0 ? 'no files changed' : `${count} ${count === 1 ? 'file' : 'files'} changed`;
    const bar = this.changesBar();
    // Nothing pending: no summary (the bar is hidden or offers only Redo).
    const summary = bar.locator('.changes-summary');
    await this.until(async () => ((await bar.isHidden()) || (await summary.count()) === 0 ? count === 0 : (await summary.innerText()).includes(text)), `"${text}" in the changes bar`, timeoutMs);
  }

  barButton(name: string) {
    return this.changesBar().getByRole('button', { name, exact: true });
  }
}

/** Chromium on code-server with the packaged extension and the bytes agent as the default agent, the panel found (the agent starts with the first message). */
export interface BytesWorkbench {
  ui: PanelDriver;
  /** Stops the browser and code-server and removes the temp folder. */
  close(): Promise<void>;
}

/** `prefix` names the temp folder that holds the workspace and the agent's request files. */
export async function openBytesWorkbench(prefix: string, settings: Record<string, unknown> = {}): Promise<BytesWorkbench> {
  const where = tempWorkspace(prefix);
  const tandem = await openTandemWorkbench(where, {
    settings: {
      'tandem.defaultAgent': 'bytes',
      // VS Code's desktop default; in the browser it saves after a second.
      'files.autoSave': 'off',
      'tandem.agents': { bytes: { label: 'Bytes agent', command: process.execPath, args: ['--import', tsxLoader, join(REPO_ROOT, 'test', 'e2e', 'reviewBytesAgent.ts')] } },
      ...settings,
    },
  });
  return { ui: new PanelDriver(tandem.page, tandem.panel, where.workspace, where.tmp), close: tandem.close };
}
