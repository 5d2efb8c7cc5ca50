// The first ten minutes in a real VS Code: code-server runs the packaged .vsix on a copy of the
// sample workspace, and the shipped demo agent's /tour is reviewed in the panel and the editor.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../support/code-server';
import { launchBrowser, openFile, openWorkbench, runCommand, screenshot, webviewFrame, type WorkbenchBrowser } from '../support/workbench';
import { auditPanel, describeViolations, focusedControl, tabTo, THEMES, unreachableControls, useTheme, type Theme } from '../support/panelAudit';

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

let sideBarWidth = 0;

/** Drags the side bar's edge until the side bar is `width` px wide, as a user resizes it. */
async function resizeSideBar(width: number): Promise<void> {
  if (width === sideBarWidth) return;
  const sidebar = page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  assert.ok(box);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 12 });
  await page.mouse.up();
  const resized = await sidebar.boundingBox();
  assert.ok(resized && Math.abs(resized.width - width) < 12, `the side bar is ${width} px wide (${resized?.width})`);
  sideBarWidth = width;
}

/** One look at the panel: its name, the side bar's width, and what to scroll into view first. */
interface PanelState {
  name: string;
  width: 300 | 600;
  scrollTo?: () => Promise<void>;
}

/** The panel in `state` and `theme`: a screenshot named `demo-tour-<state>-<theme>` and an axe-core audit that allows no serious or critical violation. */
async function checkState(state: PanelState, theme: Theme): Promise<void> {
  await resizeSideBar(state.width);
  await state.scrollTo?.();
  await screenshot(page, `demo-tour-${state.name}-${theme.name}`);
  const report = await auditPanel(panel);
  if (report.summary.length > 0) console.log(`axe, ${state.name}, ${theme.name}:\n  ${report.summary.join('\n  ')}`);
  assert.equal(report.blocking.length, 0, `serious or critical accessibility violations (${state.name}, ${theme.name}):\n${describeViolations(report.blocking)}`);
}

/**
 * Every state in each colour theme, one theme switch (an edit of settings.json) per theme rather
 * than per state. Ends in the first theme, the side bar as the last state left it.
 */
async function inEveryTheme(states: readonly PanelState[]): Promise<void> {
  for (const theme of THEMES) {
    await useTheme(server!, page, panel, theme);
    for (const state of states) await checkState(state, theme);
  }
  await useTheme(server!, page, panel, THEMES[0]);
}

/** The panel fits its width: nothing in it is wider than the panel itself, nothing scrolls sideways but code (diff lines scroll inside their box). */
async function overflowing(): Promise<string[]> {
  return panel.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('#tandem-root *')]
      .filter((node) => node.getClientRects().length > 0 && !node.closest('pre, .xterm, .terminal-screen, .tabs-strip, .visually-hidden, .diff-rows'))
      .filter((node) => node.getBoundingClientRect().right > width + 1)
      .map((node) => `${node.tagName.toLowerCase()}.${String(node.className).split(' ').join('.')} "${(node.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(node.getBoundingClientRect().right)} > ${width}`);
  });
}

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
  // The narrow case: about the width VS Code gives a new side bar.
  await resizeSideBar(300);
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
      if (index === 0) {
        await screenshot(page, 'demo-tour-permission');
        assert.deepEqual(await overflowing(), [], 'every control of the permission request fits at 300 px');
        await inEveryTheme([{ name: 'permission-300', width: 300 }]);
      }
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
    // Edits under review, the terminal card, the pickers and the meter: at 300 px in every theme. At 600 px the
    // colours are the same but for the tabs' agent names (shown above 360 px only, in their own colour): one
    // state with the tabs bar at 600 px in every theme, the other in the first theme.
    assert.deepEqual(await overflowing(), [], 'everything fits at 300 px');
    const showTerminal = () => terminal.scrollIntoViewIfNeeded();
    const showEdits = () => hunk('src/greeting.ts', '').first().scrollIntoViewIfNeeded();
    await inEveryTheme([{ name: 'review-300', width: 300, scrollTo: showTerminal }, { name: 'edits-300', width: 300, scrollTo: showEdits }, { name: 'review-600', width: 600, scrollTo: showTerminal }]);
    assert.deepEqual(await overflowing(), [], 'everything fits at 600 px');
    await checkState({ name: 'edits-600', width: 600, scrollTo: showEdits }, THEMES[0]);
    await resizeSideBar(300);

    // The review editor open beside the panel follows it: a kept hunk joins the text before the change.
    await runCommand(page, 'Review Agent Changes');
    const greetingDiff = page.locator('.multiDiffEntry', { has: page.locator('.header', { hasText: 'greeting.ts' }) });
    const greetingBefore = greetingDiff.locator('.editor.original .view-lines');
    await greetingDiff.locator('.editor.modified .view-lines', { hasText: 'What the app says first' }).waitFor({ timeout: 30_000 });
    assert.doesNotMatch(await greetingBefore.innerText(), /What the app says first/);

    // In the panel: keep the first greeting hunk, undo the farewell's new wording.
    await hunk('src/greeting.ts', 'What the app says first').getByRole('button', { name: 'Keep', exact: true }).click();
    await hunk('src/greeting.ts', 'What the app says first').waitFor({ state: 'detached', timeout: 10_000 });
    await greetingBefore.filter({ hasText: 'What the app says first' }).waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'demo-tour-review-editor-not-following');
      throw error;
    });
    assert.doesNotMatch(await greetingBefore.innerText(), /What the app says last/, 'the hunks still pending are still differences');
    await screenshot(page, 'demo-tour-review-editor-kept');
    await runCommand(page, 'Close Editor');
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

    // The same panel at 600 px.
    await resizeSideBar(600);
    await terminal.scrollIntoViewIfNeeded();
    await screenshot(page, 'demo-tour-600');
    await panel.locator('.agent-message').last().scrollIntoViewIfNeeded();
    await screenshot(page, 'demo-tour-600-answer');
  });
  test('the panel by keyboard alone: every control is reached, a message sent, a permission answered, a picker changed, a hunk kept and one undone, the history opened and closed', { timeout: 240_000 }, async () => {
    const focusIs = async (selector: string) => panel.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector);
    await runCommand(page, 'Tandem: Focus on Chat View');
    // A new conversation is the view's own "+", which the palette reaches by keyboard too.
    await runCommand(page, 'Tandem: New Conversation');
    await panel.locator('#tabs-bar .tab.active', { hasText: 'New conversation' }).waitFor({ timeout: 15_000 });
    await tabTo(page, panel, '#tabs-bar .tab.active .tab-main', { back: true });
    await panel.locator('.thread .entry').first().waitFor({ state: 'detached', timeout: 10_000 });

    // A message: "/ed" completes to the command with Enter, the next Enter sends it.
    await tabTo(page, panel, '#composer-input');
    await page.keyboard.type('/ed');
    await panel.locator('.completion-item', { hasText: '/edit' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await panel.locator('.user-message', { hasText: '/edit' }).waitFor({ timeout: 10_000 });

    // Each permission: its Allow button, then Enter. The first question is above the message box (Shift+Tab);
    // each next one comes below the card just answered, where the keyboard's place stays (Tab).
    const ended = panel.locator('.turn-ended');
    const waiting = panel.locator('.tool-card.status-awaiting');
    for (let asked = 0; (await ended.count()) === 0; asked++) {
      assert.ok(asked < 8, 'the /edit turn ends after its few questions');
      await waitFor(async () => (await waiting.count()) > 0 || (await ended.count()) > 0, 'a question or the end of the turn', 60_000);
      if ((await waiting.count()) === 0) continue;
      await tabTo(page, panel, '.tool-card.status-awaiting .permission-options vscode-button:not([secondary])', { back: asked === 0, max: 120 });
      await page.keyboard.press('Enter');
      await waiting.first().waitFor({ state: 'detached', timeout: 20_000 });
    }
    assert.equal(await ended.first().getAttribute('data-stop-reason'), 'end_turn');

    // A picker: Tab to the model, an arrow changes it, the agent confirms.
    await tabTo(page, panel, 'select[data-option-id="model"]', { max: 150 });
    await page.keyboard.press('ArrowDown');
    await panel.locator('select[data-option-id="model"]:not([aria-busy])').waitFor({ timeout: 15_000 });
    assert.equal(await panel.locator('select[data-option-id="model"]').inputValue(), 'terse');

    // Keep one hunk and undo another, from the cards.
    const keep = '.tool-diff.pending .hunk button[title^="Keep this change"]';
    await tabTo(page, panel, keep, { back: true, max: 200 });
    const kept = await panel.evaluate(() => {
      const hunk = document.activeElement?.closest('.hunk');
      return { id: hunk?.getAttribute('data-hunk-id') ?? '', path: hunk?.closest('.tool-diff')?.getAttribute('data-path') ?? '',
        added: [...(hunk?.querySelectorAll('.diff-added .diff-code') ?? [])].map((line) => line.textContent ?? '') };
    });
    await page.keyboard.press('Enter');
    await panel.locator(`.hunk[data-hunk-id="${kept.id}"]`).waitFor({ state: 'detached', timeout: 10_000 });
    for (const line of kept.added) assert.ok(readFileSync(kept.path, 'utf8').includes(line), `kept: ${line}`);
    await tabTo(page, panel, '.tool-diff.pending .hunk button[title^="Undo this change"]', { back: true, max: 200 });
    const undone = await panel.evaluate(() => {
      const hunk = document.activeElement?.closest('.hunk');
      return { id: hunk?.getAttribute('data-hunk-id') ?? '', path: hunk?.closest('.tool-diff')?.getAttribute('data-path') ?? '',
        added: [...(hunk?.querySelectorAll('.diff-added .diff-code') ?? [])].map((line) => line.textContent ?? '').filter((line) => line.trim() !== '') };
    });
    const before = existsSync(undone.path) ? readFileSync(undone.path, 'utf8') : '';
    await page.keyboard.press('Enter');
    await panel.locator(`.hunk[data-hunk-id="${undone.id}"]`).waitFor({ state: 'detached', timeout: 10_000 });
    await waitFor(async () => (existsSync(undone.path) ? readFileSync(undone.path, 'utf8') : '') !== before, `${undone.path} changes on disk`);
    const after = existsSync(undone.path) ? readFileSync(undone.path, 'utf8') : '';
    assert.ok(undone.added.every((line) => !after.includes(line)) || after.length < before.length, `the undone lines left ${undone.path}`);

    // The history: close this conversation, find it in the history and open it again; Escape closes the list, focus back on its button.
    await tabTo(page, panel, '#tabs-bar .tab.active .tab-close', { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await panel.locator('#tabs-bar .tab', { hasText: '/edit' }).waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(await focusIs('#tabs-bar .tab.active .tab-main'), `focus stays in the tabs, on the conversation now in front, not on ${await focusedControl(panel)}`);
    await tabTo(page, panel, '#history-button', { max: 5 });
    await page.keyboard.press('Enter');
    await panel.locator('#history-panel .history-item', { hasText: '/edit' }).waitFor({ timeout: 10_000 });
    await tabTo(page, panel, '#history-panel .history-open', { max: 5 });
    await page.keyboard.press('Enter');
    await panel.locator('#tabs-bar .tab.active', { hasText: '/edit' }).waitFor({ timeout: 15_000 });
    await panel.locator('.user-message', { hasText: '/edit' }).waitFor({ timeout: 15_000 });
    assert.ok(await focusIs('#history-button'), `the keyboard is back on the history button, not on ${await focusedControl(panel)}`);
    await page.keyboard.press('Enter');
    await panel.locator('#history-panel').waitFor({ state: 'visible', timeout: 5_000 });
    await page.keyboard.press('Escape');
    await panel.locator('#history-panel').waitFor({ state: 'hidden', timeout: 5_000 });
    assert.ok(await focusIs('#history-button'), `focus is back on the history button, not on ${await focusedControl(panel)}`);
    await screenshot(page, 'demo-tour-keyboard');

    // Every visible control of the panel is on the Tab path, from its top to where it hands focus back to the editor.
    await runCommand(page, 'Tandem: Focus on Chat View');
    await tabTo(page, panel, '#tabs-bar .tab.active .tab-main', { back: true, max: 300 });
    assert.deepEqual(await unreachableControls(page, panel), [], 'controls Tab never reaches');
  });
});
