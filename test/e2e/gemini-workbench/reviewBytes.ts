// Review, byte for byte, where it can break: the packaged .vsix in code-server, whose buffers
// normalise line endings, with the real Gemini CLI writing through the editor and a scripted
// agent writing the disk itself. Every result is checked as bytes (sha256), and the editor side
// of review (decorations, hover, keys, Ctrl+Z, unsaved edits) is driven as a user would.
// Runs in the shared Gemini workbench after the panel's tests, from the state they leave.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { sha256 } from '../../support/hashes';
import type { ScriptedModelServer } from '../../support/model-servers/script';
import { send } from '../../support/panelUser';
import { openFile, runCommand, screenshot } from '../../support/workbench';
import { selectAgent } from './panelSteps';
import {
  allowUntil, at, barButton, cursorLine, decideFile, diskEntry, expectBytes, expectEditorShows, fileRows, goToLine, isDirty, of, onDisk,
  pendingFiles, request, turn, utf8,
} from './reviewBytesSteps';
import { settleWorkbench } from './suiteStart';
import { until, type WorkbenchGetter } from './workbench';

export function registerReviewBytesTests(workbench: WorkbenchGetter): void {
  describe('review byte for byte in code-server', () => {
    let page: Page;
    let panel: Frame;
    let model: ScriptedModelServer;
    before(async () => {
      const w = workbench();
      ({ page, panel, model } = w);
      // Unsaved edits are the point (VS Code's desktop default; in the browser it saves after a
      // second), and undo notes are off; then a Gemini CLI conversation in front.
      await settleWorkbench(w, { 'files.autoSave': 'off', 'tandem.review.tellAgentAboutUndo': false });
      await selectAgent(panel, 'Gemini CLI', 'gemini');
    });

    test('Gemini CLI through the editor: BOM + CRLF, mixed EOL, lone CR, no final newline, emoji, a new file; a Latin-1 file is never rewritten', { timeout: 300_000 }, async () => {
      assert.ok(model);
      const originals: Record<string, Buffer> = {
        'bom.txt': utf8('\uFEFFfirst\r\nsecond\r\nthird\r\n'),
        'mixed.txt': utf8('alpha\r\nbeta\ngamma\r\ndelta\n'),
        'lone-cr.txt': utf8('one\ntwo\rthree\nfour\n'),
        'no-final.txt': utf8('no final\nnewline here'),
        'unicode.txt': utf8('café ñ 日本語\n🙂 👩‍💻 e\u0301\n'),
        'latin1.txt': Buffer.from('caf\xe9\r\nna\xefve\n', 'latin1'),
      };
      // What the model asks Gemini to write, and what the file must then hold: the agent's lines,
      // with the BOM and every untouched line's own ending kept (Gemini makes all of them CRLF).
      const written: Record<string, [content: string, after: Buffer | null]> = {
        'bom.txt': ['first\r\nSECOND\r\nthird\r\n', utf8('\uFEFFfirst\r\nSECOND\r\nthird\r\n')],
        'mixed.txt': ['alpha\r\nbeta\nGAMMA\r\ndelta\n', utf8('alpha\r\nbeta\nGAMMA\r\ndelta\n')],
        'lone-cr.txt': ['one\ntwo\rthree\nFOUR\n', utf8('one\ntwo\rthree\nFOUR\n')],
        'no-final.txt': ['no final\nnewline HERE', utf8('no final\nnewline HERE')],
        'unicode.txt': ['café ñ 日本語\n🙂 👩‍💻 e\u0301 ✓\n', utf8('café ñ 日本語\n🙂 👩‍💻 e\u0301 ✓\n')],
        'new-by-gemini.txt': ['brand new 🙂\r\nsecond line\n', utf8('brand new 🙂\r\nsecond line\n')],
        'latin1.txt': ['th\u00e9\r\nna\u00efve\n', of(originals, 'latin1.txt')],
      };
      for (const [name, bytes] of Object.entries(originals)) writeFileSync(at(name), bytes);
      // Clean editors of the files VS Code would normalise (and of the Latin-1 one, which it shows with U+FFFD).
      for (const name of ['mixed.txt', 'lone-cr.txt', 'bom.txt', 'latin1.txt']) await openFile(page, name);
      model.enqueue({ toolUses: Object.entries(written).map(([name, [content]]) => ({ name: 'write_file', input: { file_path: at(name), content } })) }, { text: 'Wrote them.' });
      await turn('Edit the files', 180_000);
      for (const [name, [, bytes]] of Object.entries(written)) await expectBytes(name, bytes);
      await pendingFiles(6);
      const rows = await fileRows();
      assert.deepEqual([...rows].sort(), Object.keys(written).filter((name) => name !== 'latin1.txt').map(at).sort(), 'the Latin-1 file was refused as not UTF-8 text, not rewritten');
      await openFile(page, 'mixed.txt');
      await expectEditorShows('alpha\nbeta\nGAMMA\ndelta\n');
      assert.equal(await isDirty(), false, 'the clean editor reloaded the exact bytes written to disk');
      await screenshot(page, 'e2e-bytes-gemini-written');

      const after = (name: string) => of(written, name)[1];
      await decideFile('mixed.txt', 'Keep');
      await decideFile('lone-cr.txt', 'Undo');
      await expectBytes('mixed.txt', after('mixed.txt'));
      await expectBytes('lone-cr.txt', of(originals, 'lone-cr.txt'));
      await pendingFiles(4);
      await barButton('Undo all').click();
      for (const name of ['bom.txt', 'no-final.txt', 'unicode.txt', 'latin1.txt']) await expectBytes(name, of(originals, name));
      await expectBytes('new-by-gemini.txt', null);
      await expectBytes('mixed.txt', after('mixed.txt'));
      await openFile(page, 'lone-cr.txt');
      await expectEditorShows('one\ntwo\nthree\nfour\n');
      assert.equal(await isDirty(), false);

      await barButton('Redo').click();
      for (const name of ['bom.txt', 'no-final.txt', 'unicode.txt', 'new-by-gemini.txt']) await expectBytes(name, after(name));
      await expectBytes('lone-cr.txt', of(originals, 'lone-cr.txt'));
      await pendingFiles(4);
      await barButton('Keep all').click();
      await pendingFiles(0);
      for (const name of ['bom.txt', 'no-final.txt', 'unicode.txt', 'new-by-gemini.txt', 'mixed.txt']) await expectBytes(name, after(name));
      await screenshot(page, 'e2e-bytes-gemini-kept');
    });

    test('Gemini CLI reads the unsaved text of a BOM + CRLF file, and its write joins the unsaved edits, undoable, until the user saves', { timeout: 240_000 }, async () => {
      assert.ok(model);
      const original = utf8('\uFEFFalpha\r\nbeta\r\ngamma\r\n');
      writeFileSync(at('dirty-bom.txt'), original);
      await openFile(page, 'dirty-bom.txt');
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await goToLine(2);
      await page.keyboard.press('End');
      await page.keyboard.type(' typed');
      await until(isDirty, 'the editor to have unsaved edits');
      const requestsBefore = model.requests.length;
      model.enqueue(
        { toolUses: [{ name: 'read_file', input: { file_path: at('dirty-bom.txt') } }] },
        { toolUses: [{ name: 'write_file', input: { file_path: at('dirty-bom.txt'), content: 'alpha\nbeta typed\nGAMMA\n' } }] },
        { text: 'Edited it.' },
      );
      await turn('Read dirty-bom.txt, then make gamma upper case', 180_000);
      const toModel = model.requests.slice(requestsBefore).filter((request) => request.role === 'main').map((request) => JSON.stringify(request.body));
      assert.ok(toModel.some((body) => body.includes('functionResponse') && body.includes('beta typed')), 'the read gave Gemini the unsaved text');
      await expectEditorShows('alpha\nbeta typed\nGAMMA\n');
      assert.equal(await isDirty(), true, 'the write joined the unsaved edits: still unsaved');
      await expectBytes('dirty-bom.txt', original);
      await screenshot(page, 'e2e-bytes-dirty-joined');
      await pendingFiles(1);
      await barButton('Keep all').click();
      await pendingFiles(0);

      // One step on the editor's undo stack, the user's typing left as it was.
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+z');
      await expectEditorShows('alpha\nbeta typed\ngamma\n');
      await page.keyboard.press('Control+Shift+z');
      await expectEditorShows('alpha\nbeta typed\nGAMMA\n');
      await expectBytes('dirty-bom.txt', original);
      await page.keyboard.press('Control+s');
      await expectBytes('dirty-bom.txt', utf8('\uFEFFalpha\r\nbeta typed\r\nGAMMA\r\n'));
    });

    test('Ctrl+Z in the editor undoes an agent write as one step; saved, the file is byte for byte the original', { timeout: 180_000 }, async () => {
      await selectAgent(panel, 'Bytes agent', 'bytes');
      const files: [name: string, original: string, agent: string][] = [
        ['ctrl-z-lf.txt', 'one\ntwo\nthree\nfour\nfive\n', 'ONE\ntwo\nthree\nfour\nFIVE\n'],
        ['ctrl-z-bom.txt', '\uFEFFuno\r\ndos\r\ntres\r\ncuatro\r\n', 'uno\r\nDOS\r\ntres\r\nCUATRO\r\n'],
      ];
      for (const [name, original] of files) {
        writeFileSync(at(name), original);
        await openFile(page, name);
      }
      await turn(`bytes-editor ${request(files.map(([name, , agent]) => ({ path: at(name), text: agent })))}`);
      await expectBytes('ctrl-z-lf.txt', utf8('ONE\ntwo\nthree\nfour\nFIVE\n'));
      await expectBytes('ctrl-z-bom.txt', utf8('\uFEFFuno\r\nDOS\r\ntres\r\nCUATRO\r\n'));
      await pendingFiles(2);
      for (const [name, original] of files) {
        await openFile(page, name);
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
        await page.keyboard.press('Control+z');
        await expectEditorShows(original.replace(/^\uFEFF/, ''));
        assert.equal(await isDirty(), true, `${name}: one Ctrl+Z took back both of the write's hunks`);
        await page.keyboard.press('Control+s');
        await expectBytes(name, utf8(original));
      }
      await pendingFiles(0);
      await screenshot(page, 'e2e-bytes-ctrl-z');
    });

    test('the editor shows pending hunks (tint, removed lines, hover) and the keys move, keep and undo them', { timeout: 180_000 }, async () => {
      const lines = Array.from({ length: 12 }, (_, i) => `l${i + 1}\n`);
      const original = lines.join('');
      const agent = original.replace('l3\n', 'l3 CHANGED\n').replace('l6\n', '').replace('l9\n', 'l9\nadded A\nadded B\n');
      writeFileSync(at('deco.txt'), original);
      await openFile(page, 'deco.txt');
      await turn(`bytes-editor ${request([{ path: at('deco.txt'), text: agent }])}`);
      await expectBytes('deco.txt', utf8(agent));
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      const shown = () => editor.evaluate((node) => ({
        tinted: [...node.querySelectorAll('.view-overlays div[class*="ced-"]')].filter((div) => !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(getComputedStyle(div).backgroundColor)).length,
        removed: [...node.querySelectorAll('.view-lines span')].map((span) => getComputedStyle(span, '::after').content).filter((content) => content.includes('⌫')),
      }));
      await until(async () => (await shown()).tinted === 3, 'three tinted lines');
      assert.deepEqual((await shown()).removed.map((content) => content.replace(/^"|"$/g, '').trim()).sort(), ['⌫ 1 removed: l3', '⌫ 1 removed: l6']);
      await editor.locator('.codelens-decoration', { hasText: 'Keep' }).first().waitFor({ timeout: 20_000 });
      await screenshot(page, 'e2e-bytes-decorations');
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await goToLine(5);
      await runCommand(page, 'Show or Focus Hover');
      const hover = page.locator('.monaco-hover:visible', { hasText: 'removed by the agent' });
      await hover.waitFor({ timeout: 10_000 });
      assert.match(await hover.innerText(), /1 line removed by the agent[\s\S]*l6/);
      await screenshot(page, 'e2e-bytes-hover');
      await page.keyboard.press('Escape');

      await page.keyboard.press('Control+Home');
      await until(async () => (await cursorLine()) === 1, 'the cursor on line 1');
      // Next, next, next, previous: the hunks start on lines 3 (changed), 6 (after the removed one) and 9 (added).
      for (const [key, line] of [['Control+Alt+BracketRight', 3], ['Control+Alt+BracketRight', 6], ['Control+Alt+BracketRight', 9], ['Control+Alt+BracketLeft', 6]] as const) {
        await page.keyboard.press(key);
        await until(async () => (await cursorLine()) === line, `${key} to bring the cursor to line ${line}`, 5_000);
      }
      await goToLine(3);
      await page.keyboard.press('Control+Alt+Enter');
      await until(async () => (await editor.locator('.codelens-decoration', { hasText: 'Keep' }).count()) === 2, 'two hunks left after Ctrl+Alt+Enter');
      await goToLine(9);
      await page.keyboard.press('Control+Alt+Backspace');
      await expectBytes('deco.txt', utf8(original.replace('l3\n', 'l3 CHANGED\n').replace('l6\n', '')));
      await pendingFiles(1);
      await barButton('Keep all').click();
      await pendingFiles(0);
    });

    test('an agent that writes the disk itself: undo gives back every byte, keep leaves the agent\'s; a new file undone is gone, a deleted one is back', { timeout: 180_000 }, async () => {
      const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      const cases: [name: string, original: Buffer | null, agent: Buffer | null][] = [
        ['d-bom.txt', utf8('\uFEFFfirst\r\nsecond\r\n'), utf8('\uFEFFfirst\r\nSECOND\r\n')],
        ['d-mixed.txt', utf8('a\r\nb\nc\r\n'), utf8('a\r\nB\nc\r\n')],
        ['d-lone-cr.txt', utf8('x\ry\nz'), utf8('x\rY\nz')],
        ['d-no-final.txt', utf8('p\nq'), utf8('p\nq and more')],
        ['d-unicode.txt', utf8('日本語 🙂\n'), utf8('日本語 👩‍💻\n')],
        ['d-latin1.txt', Buffer.from('caf\xe9\n', 'latin1'), Buffer.from('th\xe9\n', 'latin1')],
        ['d-utf16.txt', utf16('héllo\r\n'), utf16('HÉLLO\r\n')],
        ['d-deleted.txt', utf8('deleted by the agent\r\n'), null],
        ['d-created.txt', null, utf8('created 🙂\r\nby the agent\n')],
      ];
      for (const [name, original] of cases) if (original) writeFileSync(at(name), original);
      for (const name of ['d-mixed.txt', 'd-lone-cr.txt', 'd-deleted.txt']) await openFile(page, name);
      await turn(`bytes-disk ${request(cases.map(([name, , agent]) => diskEntry(name, agent)))}`);
      await pendingFiles(cases.length);
      await screenshot(page, 'e2e-bytes-disk-pending');
      await decideFile('d-mixed.txt', 'Keep');
      await decideFile('d-lone-cr.txt', 'Undo');
      await expectBytes('d-lone-cr.txt', utf8('x\ry\nz'));
      await barButton('Undo all').click();
      for (const [name, original, agent] of cases) await expectBytes(name, name === 'd-mixed.txt' ? agent : original);
      await openFile(page, 'd-lone-cr.txt');
      await expectEditorShows('x\ny\nz');
      assert.equal(await isDirty(), false);
      await openFile(page, 'd-mixed.txt');
      await expectEditorShows('a\nB\nc\n');
      await pendingFiles(0);
    });

    test('unsaved edits are never written behind: Cancel keeps the agent\'s change, Save and Undo keeps the user\'s edit and the exact line endings', { timeout: 180_000 }, async () => {
      writeFileSync(at('dirty.txt'), 'a\r\nb\nc\r\nd\ne\r\n');
      await openFile(page, 'dirty.txt');
      await turn(`bytes-disk ${request([diskEntry('dirty.txt', utf8('a\r\nB\nc\r\nd\ne\r\n'))])}`);
      await expectEditorShows('a\nB\nc\nd\ne\n');
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await goToLine(5);
      await page.keyboard.press('End');
      await page.keyboard.type(' typed');
      await until(isDirty, 'the editor to have unsaved edits');
      const undoLens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'Undo' }).first();
      const dialog = page.locator('.monaco-dialog-box');
      await undoLens.click();
      await dialog.filter({ hasText: 'has unsaved edits' }).waitFor({ timeout: 10_000 });
      await screenshot(page, 'e2e-bytes-unsaved-question');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      // The next question must not be answered on this one while it closes.
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
      await page.locator('.notifications-toasts', { hasText: 'you kept the agent\'s change' }).waitFor({ timeout: 10_000 });
      await expectBytes('dirty.txt', utf8('a\r\nB\nc\r\nd\ne\r\n'));
      assert.equal(await isDirty(), true, 'the unsaved edit is still in the editor');
      await expectEditorShows('a\nB\nc\nd\ne typed\n');

      await undoLens.click();
      await dialog.filter({ hasText: 'has unsaved edits' }).waitFor({ timeout: 10_000 });
      await dialog.getByRole('button', { name: 'Save and Undo' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
      await expectBytes('dirty.txt', utf8('a\r\nb\nc\r\nd\ne typed\r\n'));
      await expectEditorShows('a\nb\nc\nd\ne typed\n');
      assert.equal(await isDirty(), false);
      await barButton('Keep all').click();
      await pendingFiles(0);
    });

    test('with tandem.review.tellAgentAboutUndo off, an undo sends the agent no note', { timeout: 120_000 }, async () => {
      writeFileSync(at('note-off.txt'), 'before\n');
      await turn(`bytes-disk ${request([diskEntry('note-off.txt', utf8('after\n'))])}`);
      await decideFile('note-off.txt', 'Undo');
      await expectBytes('note-off.txt', utf8('before\n'));
      await turn('hello again');
      // The agent echoes the whole prompt it got: with the setting on, the note would follow the text.
      assert.equal((await panel.locator('.agent-message').last().innerText()).trim(), 'Prompt: hello again');
    });

    test('pending changes survive the agent being killed mid-call, and undo all gives back the bytes', { timeout: 120_000 }, async () => {
      writeFileSync(at('k-done.txt'), 'done\r\nbefore\n');
      writeFileSync(at('k-hung.txt'), '\uFEFFhung\rbefore\n');
      const file = request([diskEntry('k-done.txt', utf8('done\r\nafter\n')), diskEntry('k-hung.txt', utf8('\uFEFFhung\rafter\n'))]);
      await send(panel, `bytes-hang ${file}`);
      await allowUntil(async () => sha256(onDisk('k-hung.txt')) === sha256(utf8('\uFEFFhung\rafter\n')), 'the agent to write k-hung.txt', 30_000);
      await until(async () => existsSync(`${file}.pid`), 'the agent\'s pid');
      process.kill(Number(readFileSync(`${file}.pid`, 'utf8')), 'SIGKILL');
      await pendingFiles(2);
      await screenshot(page, 'e2e-bytes-agent-killed');
      await barButton('Undo all').click();
      await expectBytes('k-done.txt', utf8('done\r\nbefore\n'));
      await expectBytes('k-hung.txt', utf8('\uFEFFhung\rbefore\n'));
    });
  });
}
