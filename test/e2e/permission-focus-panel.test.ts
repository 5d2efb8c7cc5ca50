// Two permission questions open at once, answered by keyboard in the panel's webview bundle in
// Chromium with the extension's CSP, against the scripted agent: where the keyboard goes after
// each answer, and that answering never scrolls the thread.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { panelPerTest, scriptedPanelPresenter } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest({ width: 520, height: 700 });

const threadScrollTop = (page: Page) => page.evaluate(() => document.getElementById('thread')?.scrollTop ?? -1);
const focusIsIn = (page: Page, selector: string) => page.evaluate((within) => document.activeElement?.closest(within) !== null && document.activeElement !== document.body, selector);

describe('focus after answering a permission', () => {
  test('with two questions open, answering the first by keyboard moves the keyboard to the second\'s options, answering that leaves it on the second card; the thread does not scroll', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    scriptedPanelPresenter(t, harness);
    const page = harness.page;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    const input = page.locator('#composer-input textarea');
    await input.fill('two-permissions');
    await input.press('Enter');

    const first = page.locator('.tool-card[data-tool-call-id="edit-a"]');
    const second = page.locator('.tool-card[data-tool-call-id="edit-b"]');
    await first.locator('.permission-options vscode-button').first().waitFor({ timeout: 30_000 });
    await second.locator('.permission-options vscode-button').first().waitFor({ timeout: 30_000 });
    // The first question in view with text above it, the second out of view below: a scroll to the second card or to the end would move it.
    const scrolled = await page.evaluate(() => {
      const thread = document.getElementById('thread') as HTMLElement;
      const card = document.querySelector('.tool-card[data-tool-call-id="edit-a"]') as HTMLElement;
      thread.scrollTop += card.getBoundingClientRect().top - thread.getBoundingClientRect().top - 200;
      return { top: thread.scrollTop, below: thread.scrollHeight - thread.clientHeight - thread.scrollTop };
    });
    assert.ok(scrolled.below > 300, `the thread goes on well below the first question (${scrolled.below} px)`);
    await first.locator('.permission-options vscode-button').first().evaluate((node) => (node as HTMLElement).focus({ preventScroll: true }));
    assert.equal(await threadScrollTop(page), scrolled.top);

    await page.keyboard.press('Enter');
    await first.locator('.permission-options').waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForFunction(() => document.activeElement?.closest('.tool-card[data-tool-call-id="edit-b"] .permission-options') != null, undefined, { timeout: 10_000 });
    assert.ok(await focusIsIn(page, '.tool-card[data-tool-call-id="edit-b"] .permission-options'), 'the keyboard is on the open question\'s options');
    assert.equal(await threadScrollTop(page), scrolled.top, 'answering the first question did not scroll the thread');
    await screenshot(page, 'webview-permission-focus-next');

    await page.keyboard.press('Enter');
    await page.locator('.agent-message', { hasText: 'Permission outcomes: allow-once, allow-once' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.permission-options').count(), 0, 'both questions are answered');
    await page.waitForFunction(() => document.activeElement?.matches('.tool-card[data-tool-call-id="edit-b"]') === true, undefined, { timeout: 10_000 });
    assert.equal(await second.getAttribute('tabindex'), '-1', 'the answered card takes the focus without joining the Tab order');
    assert.equal(await threadScrollTop(page), scrolled.top, 'answering the second question did not scroll the thread');
    assert.deepEqual(harness.sent.filter((message) => message.type === 'answerPermission').length, 2);
    assert.deepEqual(harness.pageErrors, []);
  });
});
