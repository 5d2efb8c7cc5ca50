// Permission questions whose text hides what they ask, from the scripted agent through the host
// to the panel's webview bundle in Chromium with the extension's CSP, in a 300 px side bar: a file
// name with a right-to-left override, and a command padded with 40 line breaks whose title says
// something else. What the user reads must be what is asked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { panelPerTest, scriptedPanelPresenter } from '../support/panelPerTest';
import { send } from '../support/panelUser';
import type { TestScope } from '../support/sessionBuilders';
import { HIDDEN_TAIL } from '../support/scenarios/consent';
import { screenshot } from '../support/workbench';

const panel = panelPerTest({ width: 300, height: 600 });

interface Box { top: number; bottom: number; left: number; right: number }

/**
 * With the card's top scrolled to the thread's top: where `needle` is drawn in each of `parts`
 * (null where it is not in the text), and the box of the thread the user sees, inside the window.
 */
function drawnOnFirstScreen(card: Locator, parts: string[], needle: string) {
  return card.evaluate((node, { parts, needle }) => {
    const thread = document.getElementById('thread') as HTMLElement;
    thread.scrollTop += node.getBoundingClientRect().top - thread.getBoundingClientRect().top;
    const seen = thread.getBoundingClientRect();
    const visible = { top: Math.max(seen.top, 0), bottom: Math.min(seen.bottom, window.innerHeight), left: Math.max(seen.left, 0), right: Math.min(seen.right, window.innerWidth) };
    const found = parts.map((selector) => {
      const part = node.querySelector(selector);
      if (!part) return null;
      const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const at = (text.nodeValue ?? '').indexOf(needle);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + needle.length);
        const { top, bottom, left, right } = range.getBoundingClientRect();
        return { top, bottom, left, right };
      }
      return null;
    });
    return { visible, found };
  }, { parts, needle });
}

const inside = (inner: Box, outer: Box) => inner.top >= outer.top && inner.bottom <= outer.bottom && inner.left >= outer.left && inner.right <= outer.right;

/** The scripted agent's two questions, open in a fresh panel: the write to the overridden name and the padded command. */
async function askHiddenText(t: TestScope) {
  const harness = await panel(t);
  scriptedPanelPresenter(t, harness);
  const page = harness.page;
  await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });
  await send(page.mainFrame(), 'hidden-text');
  const write = page.locator('.tool-card[data-tool-call-id="write-overridden"]');
  const run = page.locator('.tool-card[data-tool-call-id="run-padded"]');
  await write.locator('.permission-options vscode-button').first().waitFor({ timeout: 30_000 });
  await run.locator('.permission-options vscode-button').first().waitFor({ timeout: 30_000 });
  const rejectBoth = async () => {
    for (const card of [write, run]) await card.locator('.permission-options vscode-button[title$="(reject once)"]').click();
    await page.locator('.agent-message', { hasText: 'Permission outcomes: reject-once, reject-once' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(harness.pageErrors, []);
  };
  return { page, write, run, rejectBoth };
}

describe('consent text in the panel, 300 px wide', () => {
  test('a file name with a right-to-left override shows the override as an escape wherever the card names it', { timeout: 120_000 }, async (t) => {
    const { page, write, rejectBoth } = await askHiddenText(t);
    const escaped = 'readme⟨U+202E⟩hs.dm';
    assert.ok(!(await write.innerText()).includes('\u202E'), 'no override reaches the card to reorder what it shows');
    assert.equal((await write.locator('.tool-title').innerText()).trim(), `Write ${escaped}`);
    assert.equal((await write.locator('.location-link').innerText()).trim(), escaped);
    assert.equal((await write.locator('.permission-prompt').innerText()).trim(), `The agent wants to create ${escaped}.`, "the diff is from nothing: it makes the file");
    assert.ok((await write.locator('.permission .diff-path').innerText()).includes(`${escaped} (new file)`), 'the diff names the file escaped');
    const options = await write.locator('.permission-options vscode-button').allTextContents();
    assert.equal(options.length, 3);
    assert.ok(options[1]?.includes(`${escaped} commands`), `options name the file escaped: ${JSON.stringify(options)}`);
    await write.evaluate((node) => {
      const thread = document.getElementById('thread') as HTMLElement;
      thread.scrollTop += node.getBoundingClientRect().top - thread.getBoundingClientRect().top;
    });
    await screenshot(page, 'consent-text-overridden-name-300px');
    await rejectBoth();
  });

  test('a command padded with 40 line breaks shows its hidden end on the card\'s first screen, in the title and in the command taken from its raw input', { timeout: 120_000 }, async (t) => {
    const { page, run, rejectBoth } = await askHiddenText(t);
    const drawn = await drawnOnFirstScreen(run, ['.tool-title', '.permission-command'], HIDDEN_TAIL.slice(0, HIDDEN_TAIL.indexOf(' |')));
    for (const [index, part] of ['title', 'command'].entries()) {
      const box = drawn.found[index];
      assert.ok(box, `the ${part} shows the hidden end`);
      assert.ok(inside(box, drawn.visible), `the ${part}'s hidden end is drawn on the card's first screen: ${JSON.stringify(box)} in ${JSON.stringify(drawn.visible)}`);
    }
    await screenshot(page, 'consent-text-padded-command-300px');
    assert.equal((await run.locator('.tool-title').innerText()).trim(), `Run the tests ⏎×40 ${HIDDEN_TAIL}`);
    assert.equal(await run.locator('.permission-command').innerText(), `bash -lc 'npm test ⏎×40\n${HIDDEN_TAIL}'`, 'the command as its raw input names it, not the title');
    const options = await run.locator('.permission-options vscode-button').allTextContents();
    assert.equal(options[1], `Yes, and don't ask again for Run the tests ⏎×40 ${HIDDEN_TAIL} commands`);
    await rejectBoth();
  });
});
