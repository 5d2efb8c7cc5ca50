// The panel's webview bundle in Chromium with the extension's CSP, in the default side bar's
// 300 px, against the scripted agent: six conversations do not fit the strip, yet the one in
// front is always in full view and a "N more" list reaches every one; titles that began alike
// can be told apart; the panel has no "+" of its own beside the view's; picking another agent in
// a conversation with something in it says, before and after, that a new conversation opens.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { panelPerTest, scriptedPanelPresenter } from '../support/panelPerTest';
import { scriptedDefinition } from '../support/sessionBuilders';
import { screenshot } from '../support/workbench';

const panel = panelPerTest({ width: 300, height: 600 });

/** How much of the tab in front the strip shows: its box against the strip's. */
const activeTabShown = (page: Page) => page.evaluate(() => {
  const strip = (document.querySelector('.tabs-strip') as HTMLElement).getBoundingClientRect();
  const tab = (document.querySelector('.tabs-strip .tab.active') as HTMLElement).getBoundingClientRect();
  return { fully: tab.left >= strip.left - 1 && tab.right <= strip.right + 1, title: document.querySelector('.tab.active .tab-title')?.textContent ?? '' };
});

describe('the tab strip at 300 px', () => {
  test('six conversations: the one in front is in full view, titles differ, and "N more" lists all six and brings any forward by keyboard', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const presenter = scriptedPanelPresenter(t, harness);
    const { page } = harness;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    for (let tab = 1; tab <= 6; tab++) {
      if (tab > 1) await presenter.newSession();
      // Three begin with the same words, as "/tour" three times did.
      await presenter.sendPrompt(tab <= 3 ? 'echo tour' : `echo task ${tab}`);
    }
    const tabs = page.locator('#tabs-bar .tab');
    await page.waitForFunction(() => document.querySelectorAll('#tabs-bar .tab').length === 6 && document.querySelector('.tab.active .tab-title')?.textContent === 'echo task 6');

    const titles = await page.locator('#tabs-bar .tab-title').allTextContents();
    assert.deepEqual(titles, ['echo tour', 'echo tour (2)', 'echo tour (3)', 'echo task 4', 'echo task 5', 'echo task 6']);
    assert.deepEqual(await activeTabShown(page), { fully: true, title: 'echo task 6' }, 'the newest tab, in front, is in full view');

    const more = page.locator('#tabs-overflow');
    assert.equal(await more.isVisible(), true, 'the strip that does not hold every tab offers the rest');
    const hiddenTabs = await tabs.evaluateAll((all) => {
      const strip = (document.querySelector('.tabs-strip') as HTMLElement).getBoundingClientRect();
      return all.filter((tab) => tab.getBoundingClientRect().left < strip.left - 1 || tab.getBoundingClientRect().right > strip.right + 1).length;
    });
    assert.ok(hiddenTabs >= 3, `at 300 px most tabs are out of view (${hiddenTabs})`);
    assert.equal((await more.textContent())?.trim(), `${hiddenTabs} more`);
    await screenshot(page, 'panel-tabs-overflow-300');

    // By keyboard: focus the button, open the list, go to the first conversation, bring it forward.
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('#tabs-menu');
    await menu.waitFor();
    const items = menu.getByRole('menuitemradio');
    assert.deepEqual((await items.allTextContents()).map((text) => text.replace('Scripted agent', '')), titles, 'every open conversation is listed, in tab order');
    assert.deepEqual(await menu.locator('[aria-checked="true"] .tabs-menu-title').allTextContents(), ['echo task 6'], 'the one in front is checked');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-checked')), 'true', 'the keyboard starts on the one in front');
    await screenshot(page, 'panel-tabs-overflow-menu-300');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.tab.active .tab-title')?.textContent === 'echo tour');
    assert.equal(await menu.isVisible(), false, 'the list closes once a conversation is picked');
    assert.deepEqual(await activeTabShown(page), { fully: true, title: 'echo tour' }, 'the first tab, now in front, is scrolled into full view');
    await page.locator('.user-message', { hasText: 'echo tour' }).waitFor();

    // And by pointer, to one in the middle; Escape closes the list and gives the keyboard back.
    await more.click();
    await menu.getByRole('menuitemradio', { name: /echo task 4/ }).click();
    await page.waitForFunction(() => document.querySelector('.tab.active .tab-title')?.textContent === 'echo task 4');
    assert.deepEqual(await activeTabShown(page), { fully: true, title: 'echo task 4' });
    await more.click();
    await page.keyboard.press('Escape');
    assert.equal(await menu.isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tabs-overflow');
    assert.deepEqual(harness.pageErrors, []);
  });

  test('the panel has no "+" of its own: a new conversation is the view title\'s "+"', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    scriptedPanelPresenter(t, harness);
    const { page } = harness;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    const adds = await page.locator('.codicon-add').evaluateAll((all) => all.map((node) => node.parentElement?.outerHTML.slice(0, 300)));
    assert.deepEqual(adds, [], 'no add button in the panel');
    const rowButtons = await page.locator('#tabs-bar .tabs-row > button:visible').evaluateAll((all) => all.map((node) => node.getAttribute('aria-label')));
    assert.deepEqual(rowButtons, ['Earlier conversations'], 'beside one tab, the strip offers only the history');
  });

  test('picking another agent in a conversation with something in it: the list says a new conversation opens, and the new tab is announced', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const other = scriptedDefinition({ definition: { id: 'other', label: 'Other agent', description: 'Configured in the settings' } });
    const presenter = scriptedPanelPresenter(t, harness, { agents: [scriptedDefinition(), other] });
    const { page } = harness;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
    await presenter.sendPrompt('echo tour');
    await page.locator('.agent-message', { hasText: 'You said: tour' }).waitFor({ timeout: 30_000 });

    const picker = page.locator('#agent-picker');
    const description = () => picker.evaluate((node) => node.shadowRoot?.querySelector('.description')?.textContent?.trim() ?? '');
    await picker.click();
    await picker.locator('li.option', { hasText: 'Other agent' }).waitFor();
    assert.equal(await description(), 'The agent of “echo tour”. Picking another agent opens a new conversation; this one stays open.', 'said as soon as the list opens');
    await page.keyboard.press('ArrowDown');
    assert.equal(await description(), 'Opens a new conversation with Other agent; “echo tour” stays open with Scripted agent.');
    await screenshot(page, 'panel-agent-picker-new-conversation-300');
    await page.keyboard.press('Enter');

    await page.locator('#tabs-bar .tab').nth(1).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('#tabs-announcement').textContent(), 'Opened “New conversation” with Other agent. “echo tour” stays open with Scripted agent.');
    assert.equal(await page.locator('#tabs-announcement').getAttribute('role'), 'status');
    assert.equal(presenter.state().tabs.tabs.length, 2);
    assert.deepEqual(harness.pageErrors, []);
  });
});
