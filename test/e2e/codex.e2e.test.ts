// Codex in a real VS Code: code-server runs the packaged .vsix, Chromium drives the panel, and the
// real Codex (codex-acp 2.6.0) works against the scripted Responses API server on 127.0.0.1.
// The user picks Codex in the panel, Codex patches a file on disk itself, and the change is
// reviewed there: one hunk undone from the changes bar, checked as bytes on disk.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { sha256 } from '../support/hashes';
import { CODEX, openAgentWorkbench, type AgentWorkbench } from '../support/agentWorkbench';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { tempWorkspace } from '../support/tandemWorkbench';
import { screenshot } from '../support/workbench';

let workspace: string;
let tandem: AgentWorkbench | undefined;
let page: Page;
let panel: Frame;
let model: ScriptedModelServer | undefined;

const TEN_LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** Polls until the file's sha256 is that of `want`, then checks it. */
async function expectBytes(path: string, want: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (sha256(readFileSync(path)) !== sha256(Buffer.from(want)) && Date.now() < deadline) await page.waitForTimeout(100);
  assert.equal(sha256(readFileSync(path)), sha256(Buffer.from(want)), `${path} holds ${JSON.stringify(readFileSync(path, 'utf8'))}`);
}

before(async () => {
  const where = tempWorkspace('codex');
  workspace = where.workspace;
  tandem = await openAgentWorkbench(where, CODEX, { settings: { 'tandem.defaultAgent': 'demo' } });
  ({ page, panel, model } = tandem);
});

after(async () => {
  await tandem?.close();
});

describe('Codex in code-server', () => {
  test('picked in the panel, Codex patches a file on disk; the change is reviewed as written by the agent and one hunk is undone', { timeout: 240_000 }, async () => {
    assert.ok(model);
    const notes = join(workspace, 'notes.txt');
    writeFileSync(notes, TEN_LINES);

    await panel.locator('#agent-picker').click();
    await panel.locator('#agent-picker li.option', { hasText: 'Codex' }).click();
    await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 90_000 });
    assert.equal(await panel.locator('#agent-picker').evaluate((node) => (node as HTMLElement & { value: string }).value), 'codex');

    const patch = [
      '*** Begin Patch', '*** Update File: notes.txt',
      '@@', ' line 1', '-line 2', '+line two', ' line 3',
      '@@', ' line 8', '-line 9', '+line nine', ' line 10',
      '*** End Patch', '',
    ].join('\n');
    model.enqueue({ text: 'Spelling out two numbers.', toolUses: [{ name: 'apply_patch', input: { input: patch } }] }, { text: 'Both numbers are spelled out.' });
    const input = panel.locator('#composer-input textarea');
    await input.click();
    await input.fill('Spell out 2 and 9 in notes.txt');
    await input.press('Enter');
    const ended = panel.locator('.turn-ended').first();
    await ended.waitFor({ state: 'attached', timeout: 120_000 });
    assert.equal(await ended.getAttribute('data-stop-reason'), 'end_turn');
    assert.match(await panel.locator('#thread').innerText(), /Both numbers are spelled out\./);
    const edited = TEN_LINES.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n');
    await expectBytes(notes, edited);

    const bar = panel.locator('#changes-bar');
    await bar.locator('.changes-summary', { hasText: '1 file changed' }).waitFor({ timeout: 20_000 });
    await bar.locator('.changes-summary').click();
    const row = bar.locator(`.change-row[data-path="${notes}"]`);
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await row.locator('.origin-badge').getAttribute('aria-label'), 'written to disk by the agent');
    await row.locator('.row-open').click();
    const hunks = bar.locator('.change-hunks .hunk');
    await hunks.nth(1).waitFor({ timeout: 10_000 });
    assert.equal(await hunks.count(), 2, 'one hunk per edited region');
    // codex-acp sends one diff per hunk of the file: the card still shows the file's pending hunks once.
    const inCard = panel.locator(`.tool-card .tool-diff.pending[data-path="${notes}"]`);
    assert.equal(await inCard.count(), 1, 'the edit card draws the file once');
    assert.equal(await inCard.locator('.hunk').count(), 2);
    await screenshot(page, 'e2e-codex-review');

    const nine = hunks.filter({ hasText: 'line nine' });
    await nine.getByRole('button', { name: 'Undo', exact: true }).click();
    await expectBytes(notes, TEN_LINES.replace('line 2\n', 'line two\n'));
    await hunks.filter({ hasText: 'line nine' }).waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await hunks.count(), 1, 'the other hunk is still pending');
    await screenshot(page, 'e2e-codex-undone');
  });
});
