// The panel's webview bundle in Chromium with the extension's CSP, against the scripted agent:
// a reader scrolled up is told when something new arrives below, and gets back with one click;
// sending a message brings the view to it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { panelPerTest, scriptedPanelPresenter } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest({ width: 300, height: 600 });

/** Whether the element's box is inside the thread's visible box. */
const inView = (page: Page, selector: string) => page.evaluate((wanted) => {
  const thread = (document.getElementById('thread') as HTMLElement).getBoundingClientRect();
  const box = [...document.querySelectorAll(wanted)].at(-1)?.getBoundingClientRect();
  return box !== undefined && box.bottom > thread.top && box.top < thread.bottom;
}, selector);

async function send(page: Page, text: string): Promise<void> {
  const input = page.locator('#composer-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

async function scrollUp(page: Page): Promise<void> {
  await page.locator('#thread').hover();
  await page.mouse.wheel(0, -100_000);
  await page.waitForFunction(() => (document.getElementById('thread') as HTMLElement).scrollTop === 0);
}

describe('jump to latest', () => {
  test('scrolled up, a new answer shows "Latest" and leaves the reader where they are; the button brings the view to the end and goes', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    scriptedPanelPresenter(t, harness);
    const { page } = harness;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    const jump = page.locator('.jump-latest');
    await send(page, 'flood 400');
    await page.locator('.turn-ended').first().waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await jump.isVisible(), false, 'following the end, there is nothing to jump to');

    await scrollUp(page);
    assert.equal(await jump.isVisible(), false, 'scrolling up alone shows nothing new');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'late', text: 'A late word from the agent.' } }] });
    await jump.waitFor({ timeout: 10_000 });
    assert.equal(await page.evaluate(() => (document.getElementById('thread') as HTMLElement).scrollTop), 0, 'the reader is left where they are');
    assert.equal(await inView(page, '[data-entry-id="late"]'), false);
    await screenshot(page, 'panel-jump-latest-300');

    await jump.click();
    await page.waitForFunction(() => {
      const thread = document.getElementById('thread') as HTMLElement;
      return thread.scrollHeight - thread.scrollTop - thread.clientHeight < 2;
    }, undefined, { timeout: 10_000 });
    assert.equal(await inView(page, '[data-entry-id="late"]'), true);
    await jump.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.deepEqual(harness.pageErrors, []);
  });

  test('sending while scrolled up brings the view to the message and the answer below it', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    scriptedPanelPresenter(t, harness);
    const { page } = harness;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    await send(page, 'flood 400');
    await page.locator('.turn-ended').first().waitFor({ state: 'attached', timeout: 30_000 });
    await scrollUp(page);

    await send(page, 'echo here I am');
    await page.locator('.agent-message', { hasText: 'You said: here I am' }).waitFor({ timeout: 30_000 });
    await page.locator('.turn-ended').nth(1).waitFor({ state: 'attached', timeout: 30_000 });
    await page.waitForTimeout(200);
    assert.equal(await inView(page, '.user-message'), true, 'the message sent is in view');
    assert.equal(await inView(page, '.agent-message'), true, 'and its answer');
    assert.equal(await page.locator('.jump-latest').isVisible(), false);
  });
});
