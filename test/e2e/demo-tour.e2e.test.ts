// The first ten minutes in a real VS Code: code-server runs the packaged .vsix on a copy of the
// sample workspace, and the shipped demo agent's /tour is reviewed in the panel and the editor.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../support/code-server';
import { launchBrowser, openFile, openWorkbench, screenshot, webviewFrame, type WorkbenchBrowser } from '../support/workbench';

const VSIX = join(REPO_ROOT, 'dist', 'tandem.vsix');
const SAMPLE = join(REPO_ROOT, 'scripts', 'sample-workspace');
const original = (file: string) => readFileSync(join(SAMPLE, file), 'utf8');

let tmp: string;
let workspace: string;
let server: CodeServer | undefined;
let browser: WorkbenchBrowser | undefined;
let page: Page;
let panel: Frame;

const onDisk = (file: string) => (existsSync(join(workspace, file)) ? readFileSync(join(workspace, file), 'utf8') : null);

/** Polls until `condition` holds, bounded. */
async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls until the file holds `expected` (null: absent), bounded; the editor saves asynchronously. */
async function waitForFile(file: string, expected: string | null, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (onDisk(file) !== expected) {
    if (Date.now() > deadline) assert.equal(onDisk(file), expected, `${file} on disk`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The card of the tool call titled `title`. */
const card = (kind: string, title: string) => panel.locator(`.tool-card[aria-label="${kind} tool call: ${title}"]`);

/** The pending hunk of `file` whose text contains `text`. */
const hunk = (file: string, text: string) => panel.locator(`.tool-diff.pending[data-path$="${file}"] .hunk`, { hasText: text });

before(async () => {
  assert.ok(existsSync(VSIX), `${VSIX} is missing: run npm run package (npm test does)`);
  tmp = mkdtempSync(join(tmpdir(), 'tandem-tour-'));
  workspace = join(tmp, 'sample-workspace');
  cpSync(SAMPLE, workspace, { recursive: true });
  server = await startCodeServer({
    workspace,
    vsix: VSIX,
    settings: {
      'tandem.revealOnStartup': true,
      'tandem.defaultAgent': 'demo',
      // The DOM renderer, so a test can read the terminal's coloured spans.
      'terminal.integrated.gpuAcceleration': 'off',
    },
  });
  browser = await launchBrowser({ viewport: { width: 1500, height: 950 } });
  page = await openWorkbench(browser, server.url);
  panel = await webviewFrame(page, '#tandem-root', 60_000);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the demo tour in code-server', () => {
  test('/tour asks before each change, runs the check live, and its hunks are kept and undone one by one', { timeout: 240_000 }, async () => {
    const input = panel.locator('#composer-input textarea');
    await input.click();
    await input.fill('/tour');
    await input.press('Enter');

    const asked = [['edit', 'Edit src/greeting.ts'], ['edit', 'Create src/team.ts'], ['edit', 'Edit src/main.ts'], ['delete', 'Delete src/legacy.ts']] as const;
    for (const [index, [kind, title]] of asked.entries()) {
      const allow = card(kind, title).locator('.permission-options').getByRole('button', { name: 'Allow', exact: true });
      await allow.waitFor({ timeout: 60_000 });
      if (index === 0) await screenshot(page, 'demo-tour-permission');
      await allow.click();
    }
    const ended = panel.locator('.turn-ended').first();
    await ended.waitFor({ state: 'attached', timeout: 60_000 });
    assert.equal(await ended.getAttribute('data-stop-reason'), 'end_turn');

    assert.match(await panel.locator('#plan-strip').innerText(), /5\/5/);
    assert.ok(await panel.locator('details.thought').count() > 0, 'a thought is shown');
    assert.match(await panel.locator('#usage-meter').innerText(), /\$0\.\d+/);
    const terminal = card('execute', 'node scripts/check.mjs').locator('.terminal-pane');
    await terminal.locator('.xterm-rows', { hasText: 'All 3 rules pass.' }).waitFor({ timeout: 20_000 });
    assert.equal(await terminal.locator('.xterm-rows span.xterm-fg-2', { hasText: /^PASS$/ }).count(), 3, 'three green PASS lines');
    assert.match(await panel.locator('.agent-message').last().innerText(), /ACP has no request for deleting a file/);
    assert.equal(await hunk('src/greeting.ts', '').count(), 3);
    assert.equal(await hunk('src/main.ts', '').count(), 2);
    await terminal.scrollIntoViewIfNeeded();
    await screenshot(page, 'demo-tour-default');

    // In the panel: keep the first greeting hunk, undo the farewell's new wording.
    await hunk('src/greeting.ts', 'What the app says first').getByRole('button', { name: 'Keep', exact: true }).click();
    await hunk('src/greeting.ts', 'What the app says first').waitFor({ state: 'detached', timeout: 10_000 });
    await hunk('src/greeting.ts', 'See you soon').getByRole('button', { name: 'Undo', exact: true }).click();
    await hunk('src/greeting.ts', 'See you soon').waitFor({ state: 'detached', timeout: 10_000 });
    const greeting = original('src/greeting.ts')
      .replace('export function greeting(', '/** What the app says first: "Hello, Ada!". */\nexport function greeting(')
      .replace('\nexport function farewell(', '\n/** What the app says last. */\nexport function farewell(');
    await waitForFile('src/greeting.ts', greeting);
    // The deletion the agent made itself is undone from its card: the file is back, byte for byte.
    await card('delete', 'Delete src/legacy.ts').getByRole('button', { name: 'Undo', exact: true }).first().click();
    await waitForFile('src/legacy.ts', original('src/legacy.ts'));
    assert.equal(onDisk('src/team.ts'), "/** Everyone the app greets, in the order they joined. */\nexport const team = ['Ada', 'Grace', 'Linus'];\n");

    // In the editor: CodeLens Keep on main.ts's first hunk (the import), Undo on the second (the loop).
    await openFile(page, 'src/main.ts');
    const lenses = page.locator('.editor-group-container.active .codelens-decoration');
    await lenses.filter({ hasText: 'Keep' }).first().waitFor({ timeout: 20_000 });
    await lenses.filter({ hasText: 'Keep' }).first().locator('a', { hasText: 'Keep' }).click();
    await hunk('src/main.ts', "import { team }").waitFor({ state: 'detached', timeout: 10_000 });
    // The lenses follow the kept hunk a moment later than the panel does.
    await waitFor(async () => (await lenses.filter({ hasText: 'Keep' }).count()) === 1, 'one hunk left in the editor');
    await lenses.filter({ hasText: 'Undo' }).first().locator('a', { hasText: 'Undo' }).click();
    await waitForFile('src/main.ts', original('src/main.ts').replace("from './greeting';\n", "from './greeting';\nimport { team } from './team';\n"));
    await screenshot(page, 'demo-tour-reviewed');

    // The same panel at 600 px: drag the side bar's edge.
    const sidebar = page.locator('.part.sidebar');
    const box = await sidebar.boundingBox();
    assert.ok(box);
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 600, y, { steps: 12 });
    await page.mouse.up();
    const wide = await sidebar.boundingBox();
    assert.ok(wide && Math.abs(wide.width - 600) < 12, `the side bar is 600 px wide (${wide?.width})`);
    await terminal.scrollIntoViewIfNeeded();
    await screenshot(page, 'demo-tour-600');
    await panel.locator('.agent-message').last().scrollIntoViewIfNeeded();
    await screenshot(page, 'demo-tour-600-answer');
  });
});
