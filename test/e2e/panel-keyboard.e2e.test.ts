// The panel by keyboard and at a narrow side bar, in a real VS Code: answering a permission with
// Enter leaves the keyboard on the answered card, a terminal pane lets Tab and Escape out, and the
// message box starts at one line and grows with its text up to a limit; an agent that waits while
// the panel is hidden is shown on the view's badge, the status bar and a notification.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { auditPanel, describeViolations, focusedControl, tabTo, THEMES, useTheme } from '../support/panelAudit';
import { composerText, send, turnEnd } from '../support/panelUser';
import { terminalPrompt } from '../support/scenarios/terminals';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { openTandemWorkbench, tempWorkspace, type TandemWorkbench } from '../support/tandemWorkbench';
import { screenshot, webviewFrame } from '../support/workbench';

let tandem: TandemWorkbench | undefined;
let page: Page;
let panel: Frame;

before(async () => {
  const scripted = scriptedAgentDefinition();
  tandem = await openTandemWorkbench(tempWorkspace('keyboard'), {
    settings: {
      'tandem.defaultAgent': 'scripted',
      'tandem.agents': { scripted: { label: 'Scripted agent', command: scripted.command, args: scripted.args } },
    },
  });
  ({ page, panel } = tandem);
});

after(async () => {
  await tandem?.close();
});

/** Whether the focus is inside an element matching `selector` of the panel. */
const focusInside = (selector: string) => panel.evaluate((wanted) => document.activeElement?.closest(wanted) !== null && document.activeElement !== document.body, selector);

/** Drags the side bar's edge until the panel's document is `width` px wide (bounded). */
async function sideBarWidth(width: number): Promise<number> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const shown = await panel.evaluate(() => document.documentElement.clientWidth);
    if (Math.abs(shown - width) <= 4) return shown;
    const bar = await page.locator('.part.sidebar').boundingBox();
    assert.ok(bar, 'the side bar is shown');
    const edge = bar.x + bar.width;
    await page.mouse.move(edge, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge + (width - shown), bar.y + bar.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(400);
  }
  return panel.evaluate(() => document.documentElement.clientWidth);
}

/** The message box's height in px and its line height, as drawn. */
const composerBox = () => panel.locator('#composer-input textarea').evaluate((area) => ({
  height: area.getBoundingClientRect().height,
  // A line of the box's font at its "normal" line height, drawn apart from the box.
  line: (() => {
    const probe = document.createElement('div');
    probe.style.font = getComputedStyle(area).font;
    probe.textContent = 'Ag';
    document.body.append(probe);
    const height = probe.getBoundingClientRect().height;
    probe.remove();
    return height;
  })(),
  scrolls: area.scrollHeight > area.clientHeight,
}));

describe('the panel by keyboard and at a narrow side bar, in code-server', () => {
  test('a permission answered with Enter leaves the keyboard on the answered card, still in view, and Tab goes on from there', { timeout: 120_000 }, async () => {
    await send(panel, 'ask edit notes.md');
    const allow = panel.locator('.permission-options vscode-button').first();
    await allow.waitFor({ timeout: 60_000 });
    await tabTo(page, panel, '.permission-options vscode-button', { back: true });
    const card = panel.locator('.tool-card', { has: panel.locator('.permission-options') });
    const cardId = await card.getAttribute('data-tool-call-id');
    await page.keyboard.press('Enter');
    await panel.locator('.agent-message', { hasText: 'Outcome:' }).waitFor({ timeout: 30_000 });
    assert.equal(await panel.locator('.permission-options').count(), 0, 'the question is answered');
    assert.ok(await panel.evaluate((id) => document.activeElement?.matches(`.tool-card[data-tool-call-id="${id}"]`) ?? false, cardId), `the focus is on the answered card, not on ${await focusedControl(panel)}`);
    // Tab goes on from the card: forward to the message box, past nothing above it.
    await tabTo(page, panel, '#composer-input', { max: 30 });
    await page.keyboard.type('typed after the answer');
    assert.equal(await composerText(panel), 'typed after the answer');
    const inView = await panel.evaluate((id) => {
      const answered = document.querySelector(`.tool-card[data-tool-call-id="${id}"]`)?.getBoundingClientRect();
      const thread = document.getElementById('thread')?.getBoundingClientRect();
      return answered !== undefined && thread !== undefined && answered.bottom > thread.top && answered.top < thread.bottom;
    }, cardId);
    assert.ok(inView, 'the thread was not scrolled away from the answered card');
    await panel.locator('#composer-input textarea').fill('');
    await turnEnd(panel, 1);
  });

  test('Tab, Shift+Tab and Escape leave a terminal pane whose command has ended', { timeout: 120_000 }, async () => {
    await send(panel, terminalPrompt({ create: { command: 'echo tandem-keys; echo done-here' }, toolCall: true, steps: ['waitOutput:done-here', 'wait'] }));
    const rows = panel.locator('.terminal-pane .xterm-rows', { hasText: 'done-here' });
    await rows.waitFor({ timeout: 60_000 });
    await turnEnd(panel, 2);
    const screen = panel.locator('.terminal-pane .xterm').last();
    await screen.click();
    assert.ok(await focusInside('.xterm'), 'a click puts the focus in the terminal');
    await page.keyboard.press('Tab');
    assert.ok(!(await focusInside('.xterm')), 'Tab moved on');
    const afterTab = await focusedControl(panel);
    assert.notEqual(afterTab, 'nothing', 'Tab went to the next control of the panel');
    await screen.click();
    await page.keyboard.press('Shift+Tab');
    assert.ok(!(await focusInside('.xterm')), `Shift+Tab moved back, to ${await focusedControl(panel)}`);
    await screen.click();
    await page.keyboard.press('Escape');
    assert.ok(await panel.evaluate(() => document.activeElement?.classList.contains('terminal-pane') === true), `Escape went to the pane, not ${await focusedControl(panel)}`);
    await page.keyboard.press('Tab');
    assert.ok(!(await focusInside('.xterm')), 'from the pane Tab goes on past the terminal');
  });

  test('the message box starts at one line at 300 and 600 px and grows with its text up to ten lines', { timeout: 120_000 }, async () => {
    const input = panel.locator('#composer-input textarea');
    for (const width of [300, 600]) {
      const shown = await sideBarWidth(width);
      assert.ok(Math.abs(shown - width) <= 4, `the panel is ${shown} px wide, wanted ${width}`);
      await input.fill('');
      await page.waitForTimeout(200);
      const empty = await composerBox();
      assert.ok(empty.height < empty.line * 2, `empty at ${width} px: ${empty.height} px for a ${empty.line} px line`);
      await screenshot(page, `e2e-composer-${width}-empty`);
      await input.click();
      await page.keyboard.type('one');
      for (const word of ['two', 'three']) {
        await page.keyboard.press('Shift+Enter');
        await page.keyboard.type(word);
      }
      const three = await composerBox();
      assert.ok(three.height >= three.line * 3 && three.height < three.line * 4.5, `three lines at ${width} px: ${three.height} px`);
      assert.ok(!three.scrolls, 'three lines show whole');
      await screenshot(page, `e2e-composer-${width}-three-lines`);
      for (let line = 4; line <= 20; line++) {
        await page.keyboard.press('Shift+Enter');
        await page.keyboard.type(`line ${line}`);
      }
      const full = await composerBox();
      assert.ok(full.height <= full.line * 11 && full.height >= full.line * 9, `twenty lines stop growing at ten at ${width} px: ${full.height} px`);
      assert.ok(full.scrolls, 'beyond the limit the box scrolls');
      await input.fill('');
    }
  });

  test('an agent waiting while the panel is hidden shows a badge, a status bar item and a notification whose button answers it', { timeout: 180_000 }, async () => {
    const turns = await panel.locator('.turn-ended').count();
    // A long answer first, the permission queued behind it: it is asked once the panel is hidden.
    await send(panel, 'slow');
    await panel.locator('#send-button', { hasText: 'Stop' }).waitFor({ timeout: 30_000 });
    await send(panel, 'permission');
    await page.keyboard.press('Control+Shift+E');
    await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 10_000 });

    const tandemIcon = page.locator('.activitybar .action-item:has(a[aria-label^="Tandem"]), .activitybar .action-item[aria-label^="Tandem"]').first();
    await tandemIcon.locator('.badge', { hasText: '1' }).waitFor({ timeout: 60_000 });
    const status = page.locator('.statusbar-item', { hasText: 'Scripted agent is waiting for your permission' }).first();
    await status.waitFor({ timeout: 10_000 });
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Scripted agent asks: Edit notes.md' });
    await toast.waitFor({ timeout: 10_000 });
    assert.deepEqual((await toast.locator('.monaco-button').allInnerTexts()).map((text) => text.trim()), ['Allow', 'Always allow', 'Reject', 'Show in Tandem']);
    await screenshot(page, 'e2e-waiting-hidden-panel');

    await toast.locator('.monaco-button', { hasText: /^Allow$/ }).click();
    await status.waitFor({ state: 'detached', timeout: 15_000 });
    await tandemIcon.locator('.badge', { hasText: '1' }).waitFor({ state: 'hidden', timeout: 15_000 });
    await tandemIcon.click();
    panel = await webviewFrame(page, '.entry', 30_000);
    assert.equal(await turnEnd(panel, turns + 2, 60_000), 'end_turn');
    assert.match(await panel.locator('.agent-message').last().innerText(), /Permission outcome: allow-once/);
  });

  test('High Contrast Light: axe finds nothing serious in the panel with its cards, a terminal and an answered question', { timeout: 120_000 }, async () => {
    assert.ok(tandem);
    const theme = THEMES.find((candidate) => candidate.name === 'high-contrast-light');
    assert.ok(theme);
    await useTheme(tandem.server, page, panel, theme);
    const report = await auditPanel(panel);
    await screenshot(page, 'e2e-panel-hc-light');
    console.log(report.summary.join('\n'));
    assert.deepEqual(report.blocking, [], describeViolations(report.blocking));
  });
});
