// Checkpoints where they can break: the packaged .vsix in code-server, an agent that changes
// files through the editor and on the disk itself over three turns (creating one file and
// deleting another), the user editing one file by hand in the editor, and "Restore to here" on
// the first message, "Redo restore" and a window reload, every result checked as bytes (sha256).
// Runs in the shared Gemini workbench after the byte-for-byte review tests, in a conversation of
// its own with the bytes agent.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PanelDriver, utf8 } from '../../support/panelDriver';
import { openFile, screenshot, webviewFrame } from '../../support/workbench';
import { newConversationWith, settleWorkbench } from './suiteStart';
import type { GeminiWorkbench, WorkbenchGetter } from './workbench';

let w: GeminiWorkbench;
let page: Page;
let ui: PanelDriver;

/** The project before the first message: every file byte for byte, null for no file. */
const ORIGINAL: Record<string, Buffer | null> = {
  'editor-bom.txt': utf8('\uFEFFfirst\r\nsecond\r\nthird\r\n'),
  'hand.txt': utf8('mine to edit\nline two\n'),
  'disk-lone-cr.txt': utf8('one\rtwo\nthree\n'),
  'deleted.txt': utf8('deleted by the agent 🙂\r\n'),
  'editor-unicode.txt': utf8('café 日本語\nno final newline'),
  'created.txt': null,
};
const NAMES = Object.keys(ORIGINAL);

/** Every file of the project as it is now. */
const project = () => Object.fromEntries(NAMES.map((name) => [name, ui.onDisk(name)]));

async function expectProject(want: Record<string, Buffer | null>, what: string): Promise<void> {
  for (const name of NAMES) {
    await ui.expectBytes(name, want[name] ?? null).catch((error: Error) => {
      throw new Error(`${what}: ${error.message}`);
    });
  }
}

const userMessage = (index: number) => ui.panel.locator('.user-message').nth(index);
const preview = () => ui.panel.locator('.checkpoint-preview');
const previewRow = (name: string) => preview().locator(`.change-row[data-path="${ui.at(name)}"]`);

/** The text of each side of the Review diff of review.txt as the editor renders it (Monaco's view lines, spaces between lines). */
async function diffSides(): Promise<{ original: string; modified: string }> {
  const diff = page.locator('.monaco-diff-editor').filter({ has: page.locator('.view-lines') }).last();
  const side = async (which: 'original' | 'modified') => (await diff.locator(`.editor.${which} .view-lines`).innerText().catch(() => ''))
    .split('\n').map((line) => line.replace(/\u00a0/g, ' ').trim()).filter((line) => line !== '').join(' ');
  return { original: await side('original'), modified: await side('modified') };
}

/** Opens the preview of "Restore to here" on the first message and checks what it lists. */
async function previewFirstMessage(expected: Record<string, string>): Promise<void> {
  await userMessage(0).getByRole('button', { name: 'Restore to here' }).click();
  await preview().waitFor({ timeout: 20_000 });
  const rows = await preview().locator('.change-row').evaluateAll((items: Element[]) => items.map((item) => [item.getAttribute('data-path') ?? '', item.querySelector('.change-status')?.textContent ?? '']));
  assert.deepEqual(Object.fromEntries(rows), Object.fromEntries(Object.entries(expected).map(([name, letter]) => [ui.at(name), letter])), 'the files the preview lists, with what it does to each');
}

/** Unsaved edits stay unsaved and undo notes are off, as this suite had them in a workbench of its own; its request files go in a folder of their own. */
async function startCheckpoints(): Promise<void> {
  await settleWorkbench(w, { 'files.autoSave': 'off', 'tandem.review.tellAgentAboutUndo': false });
  await newConversationWith(w.panel, 'Bytes agent', 'bytes');
  const scratch = join(w.tmp, 'checkpoints');
  mkdirSync(scratch, { recursive: true });
  ui = new PanelDriver(w.page, w.panel, w.workspace, scratch);
  ({ page } = w);
}

export function registerCheckpointTests(workbench: WorkbenchGetter): void {
  describe('checkpoints in code-server', () => {
    before(async () => {
      w = workbench();
      await startCheckpoints();
    });

    test('restore to the first message brings back every byte, asks before overwriting a hand edit, is undone by Redo restore, and survives a reload', { timeout: 420_000 }, async () => {
      for (const [name, bytes] of Object.entries(ORIGINAL)) if (bytes) writeFileSync(ui.at(name), bytes);
      // A clean editor of a file the agent changes through the editor, as a user would have it open.
      await openFile(page, 'editor-bom.txt');
      await ui.turn(`bytes-editor ${ui.request([ui.editorEntry('editor-bom.txt', 'first\r\nSECOND\r\nthird\r\n'), ui.editorEntry('hand.txt', 'mine to edit\nline TWO by the agent\n')])}`);
      await ui.turn(`bytes-disk ${ui.request([ui.diskEntry('disk-lone-cr.txt', utf8('one\rTWO\nthree\nfour\n')), ui.diskEntry('deleted.txt', null)])}`);
      await ui.turn(`bytes-editor ${ui.request([ui.editorEntry('editor-unicode.txt', 'café 日本語 ✓\nno final newline'), ui.editorEntry('created.txt', 'created through the editor 🙂\n')])}`);
      await ui.expectBytes('editor-bom.txt', utf8('\uFEFFfirst\r\nSECOND\r\nthird\r\n'));
      await ui.expectBytes('disk-lone-cr.txt', utf8('one\rTWO\nthree\nfour\n'));
      await ui.expectBytes('deleted.txt', null);
      await ui.expectBytes('created.txt', utf8('created through the editor 🙂\n'));
      await ui.pendingFiles(6);
      await ui.barButton('Keep all').click();
      await ui.pendingFiles(0);

      // The user changes one of the agent's files by hand in the editor, and saves.
      await openFile(page, 'hand.txt');
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('typed by the user\n');
      await page.keyboard.press('Control+s');
      await ui.until(async () => ui.onDisk('hand.txt')?.toString('utf8').endsWith('typed by the user\n') === true, 'the hand edit on disk');
      const later = project();
      assert.equal(later['hand.txt']?.toString('utf8'), 'mine to edit\nline TWO by the agent\ntyped by the user\n');

      await previewFirstMessage({ 'created.txt': 'D', 'deleted.txt': 'A', 'disk-lone-cr.txt': 'M', 'editor-bom.txt': 'M', 'editor-unicode.txt': 'M', 'hand.txt': 'M' });
      assert.match(await previewRow('hand.txt').locator('.checkpoint-hand-edit').innerText(), /changed since Tandem last saw it/);
      assert.equal(await preview().locator('.checkpoint-hand-edit').count(), 1, 'only the hand-edited file is marked');
      const alsoMine = preview().getByRole('checkbox');
      assert.match(await preview().locator(`label[for="${await alsoMine.getAttribute('id')}"]`).innerText(), /Also restore the file marked with a warning/);
      assert.equal(await alsoMine.isChecked(), false);
      await screenshot(page, 'e2e-checkpoints-preview');

      // No to overwriting the hand edit: every other file goes back, that one keeps the user's bytes.
      await preview().getByRole('button', { name: 'Restore code', exact: true }).click();
      await expectProject({ ...ORIGINAL, 'hand.txt': later['hand.txt'] ?? null }, 'after the restore');
      await ui.panel.locator('.notice', { hasText: 'Restored 5 files' }).waitFor({ timeout: 15_000 });
      assert.match(await ui.panel.locator('.notice', { hasText: 'Restored 5 files' }).innerText(), /hand\.txt \(you kept your version\)/);
      await screenshot(page, 'e2e-checkpoints-restored');

      await userMessage(0).getByRole('button', { name: 'Redo restore' }).click();
      await preview().waitFor({ timeout: 20_000 });
      await preview().getByRole('button', { name: 'Redo restore', exact: true }).click();
      await expectProject(later, 'after Redo restore');

      // Let the index and copies reach workspace storage, then reload the whole window.
      await page.waitForTimeout(1_500);
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      ui.panel = w.panel = await webviewFrame(page, '#tandem-root', 60_000);
      await userMessage(0).getByRole('button', { name: 'Restore to here' }).waitFor({ timeout: 60_000 });
      await previewFirstMessage({ 'created.txt': 'D', 'deleted.txt': 'A', 'disk-lone-cr.txt': 'M', 'editor-bom.txt': 'M', 'editor-unicode.txt': 'M', 'hand.txt': 'M' });
      await screenshot(page, 'e2e-checkpoints-preview-after-reload');
      // Yes this time: the hand-edited file goes back too.
      await preview().getByRole('checkbox').check();
      await preview().getByRole('button', { name: 'Restore code', exact: true }).click();
      await expectProject(ORIGINAL, 'after the restore in the reloaded window');
      await userMessage(0).getByRole('button', { name: 'Redo restore' }).click();
      await preview().getByRole('button', { name: 'Redo restore', exact: true }).click();
      await expectProject(later, 'after Redo restore in the reloaded window');
    });

    test('a conversation continued from an earlier message keeps Restore to here on the messages it copied', { timeout: 180_000 }, async () => {
      const later = project();
      const tabs = ui.panel.locator('#tabs-bar .tab');
      const before = await tabs.count();
      await userMessage(2).getByRole('button', { name: 'Restore to here' }).click();
      await preview().getByRole('button', { name: 'Restore conversation', exact: true }).click();
      await ui.until(async () => (await tabs.count()) === before + 1, 'a tab for the continued conversation');
      await ui.panel.locator('#tabs-bar .tab.active', { hasText: '(restored)' }).waitFor({ timeout: 15_000 });
      await ui.until(async () => (await ui.panel.locator('.user-message').count()) === 2, 'the two messages before the third in the new tab');
      await expectProject(later, 'restoring only the conversation');

      await previewFirstMessage({ 'created.txt': 'D', 'deleted.txt': 'A', 'disk-lone-cr.txt': 'M', 'editor-bom.txt': 'M', 'editor-unicode.txt': 'M', 'hand.txt': 'M' });
      await screenshot(page, 'e2e-checkpoints-continued-tab');
      await preview().getByRole('button', { name: 'Restore code', exact: true }).click();
      await expectProject(ORIGINAL, 'after the restore from the continued conversation');
      await userMessage(0).getByRole('button', { name: 'Redo restore' }).click();
      await preview().getByRole('button', { name: 'Redo restore', exact: true }).click();
      await expectProject(later, 'after Redo restore from the continued conversation');
    });

    test('after a review undo, a restore does not call the file changed by hand, and the open Review diff shows the restored text', { timeout: 240_000 }, async () => {
      const original = 'one\ntwo\nthree\nfour\nfive\n';
      writeFileSync(ui.at('review.txt'), original);
      const message = await ui.panel.locator('.user-message').count();
      await ui.turn(`bytes-disk ${ui.request([ui.diskEntry('review.txt', utf8('ONE\ntwo\nthree\nfour\nFIVE\n'))])}`);
      await ui.pendingFiles(1);
      await ui.barButton('Review').click();
      await ui.until(async () => (await diffSides()).modified.includes('FIVE'), 'the Review diff of review.txt');

      // The user undoes the agent's second change through review: Tandem writes the file itself.
      const bar = ui.changesBar();
      if ((await bar.locator('.changes-summary').getAttribute('aria-expanded')) !== 'true') await bar.locator('.changes-summary').click();
      await bar.getByRole('button', { name: 'Changes to review.txt', exact: true }).click();
      await bar.locator('[title="Undo this change (line 5)"]').click();
      await ui.expectBytes('review.txt', utf8('ONE\ntwo\nthree\nfour\nfive\n'));

      await userMessage(message).getByRole('button', { name: 'Restore to here' }).click();
      await preview().waitFor({ timeout: 20_000 });
      assert.equal(await previewRow('review.txt').count(), 1);
      assert.equal(await preview().locator('.checkpoint-hand-edit').count(), 0, 'Tandem\'s own undo is not a change by hand or by another program');
      await screenshot(page, 'e2e-checkpoints-preview-after-review-undo');
      await preview().getByRole('button', { name: 'Restore code', exact: true }).click();
      await ui.expectBytes('review.txt', utf8(original));
      const notice = ui.panel.locator('.notice', { hasText: 'Restored 1 file' }).last();
      await notice.waitFor({ timeout: 15_000 });
      assert.doesNotMatch(await notice.innerText(), /kept your version/);

      const want = original.trimEnd().split('\n').join(' ');
      await ui.until(async () => {
        const { original: left, modified: right } = await diffSides();
        return left === want && right === want;
      }, `both sides of the Review diff showing "${want}"`).catch(async (error: Error) => {
        throw new Error(`${error.message}; it shows ${JSON.stringify(await diffSides())}`);
      });
      await screenshot(page, 'e2e-checkpoints-review-diff-after-restore');
    });
  });
}
