// The byte-for-byte review tests' own steps in the shared Gemini workbench: files as bytes
// (sha256, with the first difference in hex), turns that allow every question, the changes bar's
// rows and buttons, and the active editor's text, dirty state and cursor.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { sha256 } from '../../support/hashes';
import { send } from '../../support/panelUser';
import { readEditorText } from '../../support/workbench';
import type { BytesRequest } from '../reviewBytesAgent';
import { until, type GeminiWorkbench } from './workbench';

let page: Page;
let panel: Frame;
let workspace: string;
let tmp: string;
let requests = 0;

/** The workbench these steps act in, set before the first of them runs. */
export function useWorkbench(workbench: GeminiWorkbench): void {
  ({ page, panel, workspace, tmp } = workbench);
}

export const at = (name: string) => join(workspace, name);
export const onDisk = (name: string) => (existsSync(at(name)) ? readFileSync(at(name)) : null);
export const utf8 = (text: string) => Buffer.from(text, 'utf8');
const normalised = (text: string) => text.replace(/\r\n?/g, '\n');

/** `table[name]`, which the test defined. */
export function of<T>(table: Record<string, T>, name: string): T {
  const value = table[name];
  if (value === undefined) throw new Error(`no ${name} in the test's table`);
  return value;
}

/** Where two byte strings first differ, in hex, for a failure message. */
function difference(got: Buffer | null, want: Buffer | null): string {
  if (got === null || want === null) return got === null ? 'the file is missing' : 'the file should not exist';
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  return `${got.length} bytes, want ${want.length}; first difference at byte ${i}: got ${got.subarray(Math.max(0, i - 4), i + 8).toString('hex')}, want ${want.subarray(Math.max(0, i - 4), i + 8).toString('hex')}`;
}

/** Polls until the file holds exactly `want` (null: absent), then checks it by sha256. */
export async function expectBytes(name: string, want: Buffer | null, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (sha256(onDisk(name)) !== sha256(want) && Date.now() < deadline) await page.waitForTimeout(100);
  if (sha256(onDisk(name)) === sha256(want)) return;
  // What the editor said (a refused save, a kept change) is the first clue to why the bytes differ.
  const said = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  assert.equal(sha256(onDisk(name)), sha256(want), `${name}: ${difference(onDisk(name), want)}; notifications: ${JSON.stringify(said)}`);
}

/** Allows every permission the agent asks until `done` holds, bounded. */
export async function allowUntil(done: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (await allow.first().isVisible().catch(() => false)) await allow.first().click({ timeout: 2_000 }).catch(() => undefined);
    else await page.waitForTimeout(200);
  }
}

/** Sends `text` and waits for its turn to end, allowing every permission the agent asks on the way. */
export async function turn(text: string, timeoutMs = 90_000): Promise<void> {
  const ended = await panel.locator('.turn-ended').count();
  await send(panel, text);
  await allowUntil(async () => (await panel.locator('.turn-ended').count()) > ended, `the turn for ${JSON.stringify(text.slice(0, 40))} to end`, timeoutMs);
  const reason = await panel.locator('.turn-ended').nth(ended).getAttribute('data-stop-reason');
  assert.equal(reason, 'end_turn', `the turn for ${JSON.stringify(text.slice(0, 40))} ended ${reason}`);
}

/** A request file for the bytes agent; the prompt names it. */
export function request(files: BytesRequest['files']): string {
  const file = join(tmp, `request-${++requests}.json`);
  writeFileSync(file, JSON.stringify({ files }));
  return file;
}

export const diskEntry = (name: string, bytes: Buffer | null) => ({ path: at(name), bytes: bytes === null ? null : bytes.toString('base64') });

const bar = () => panel.locator('#changes-bar');

export async function pendingFiles(count: number): Promise<void> {
  const text = count === 0 ? 'no files changed' : `${count} ${count === 1 ? 'file' : 'files'} changed`;
  // Nothing pending: no summary (the bar is hidden or offers only Redo).
  const summary = bar().locator('.changes-summary');
  // The summary can go between counting and reading it: a short read that fails reads as nothing.
  const shown = () => summary.innerText({ timeout: 1_000 }).catch(() => null);
  await until(async () => {
    if ((await bar().isHidden()) || (await summary.count()) === 0) return count === 0;
    const summaryText = await shown();
    return summaryText === null ? count === 0 : summaryText.includes(text);
  }, `"${text}" in the changes bar`);
}

/** The changes bar's per-file rows, shown. */
export async function fileRows(): Promise<string[]> {
  const summary = bar().locator('.changes-summary');
  if ((await summary.getAttribute('aria-expanded')) !== 'true') await summary.click();
  return bar().locator('.change-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-path') ?? ''));
}

/** Keeps or undoes one file from its row in the changes bar. */
export async function decideFile(name: string, decision: 'Keep' | 'Undo'): Promise<void> {
  await fileRows();
  const row = bar().locator(`.change-row[data-path="${at(name)}"]`);
  await row.getByRole('button', { name: `${decision} ${name}`, exact: true }).click({ timeout: 10_000 });
  await row.waitFor({ state: 'detached', timeout: 15_000 });
}

export const barButton = (name: string) => bar().getByRole('button', { name, exact: true });
const activeTab = () => page.locator('.editor-group-container.active .tab.active');
export const isDirty = async () => /\bdirty\b/.test((await activeTab().getAttribute('class')) ?? '');

/** The active editor's text, once its lines are those of `want` (the buffer may show other line endings). */
export async function expectEditorShows(want: string): Promise<void> {
  let shown = '';
  await until(async () => normalised(shown = await readEditorText(page)) === normalised(want), `the editor to show ${JSON.stringify(want)} (shows ${JSON.stringify(shown)})`);
}

export async function goToLine(line: number): Promise<void> {
  await page.keyboard.press('Control+g');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
}

export const cursorLine = async () => Number(/Ln (\d+)/.exec(await page.locator('[id="status.editor.selection"]').innerText())?.[1]);
