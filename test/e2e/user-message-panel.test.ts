// The user's own messages as the panel's real bundle draws them in Chromium with the extension's
// CSP: a long paste folds (the thread stays readable; only the view is folded), and a message a
// window reload cut off is marked interrupted with a Retry that asks the host to send it again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { panelState } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();

/** About 200 KB of pasted log, 2,000 lines. */
const PASTE = Array.from({ length: 2_000 }, (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, '0')} line ${i} of a pasted build log, padded to about a hundred bytes ....`).join('\n');

describe('user messages in the panel', () => {
  test('a 200 KB paste is folded to a few lines with "Show all (N lines)", which shows every line', async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u1', text: PASTE }, { kind: 'agentMessage', id: 'm1', text: 'Read it.' }]) });
    const row = harness.page.locator('[data-entry-id="u1"]');
    await row.waitFor();
    const folded = await row.evaluate((node) => node.getBoundingClientRect().height);
    assert.ok(folded < 600, `the folded message is ${folded} px tall`);
    const toggle = row.locator('.user-text-toggle');
    assert.equal((await toggle.innerText()).trim(), 'Show all (2,000 lines)');
    await screenshot(harness.page, 'user-message-folded');
    await toggle.click();
    assert.equal(await row.locator('.user-text').evaluate((node) => node.textContent), PASTE, 'unfolded, the whole text');
    assert.equal((await toggle.innerText()).trim(), 'Show less');
    // Drawn again (e.g. its checkpoint actions changed), it stays open.
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryUpdated', entry: { kind: 'user', id: 'u1', text: PASTE, steered: 'injected' } }] });
    await row.locator('.steered-note').waitFor({ timeout: 5_000 });
    assert.equal((await toggle.innerText()).trim(), 'Show less');
    assert.deepEqual(harness.pageErrors, []);
  });

  test('a short message is not folded', async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u1', text: 'one\ntwo\nthree' }]) });
    await harness.page.locator('[data-entry-id="u1"] .user-text', { hasText: 'three' }).waitFor();
    assert.equal(await harness.page.locator('.user-text-toggle').count(), 0);
  });

  test('a message a reload cut off shows "Interrupted" and Retry, which asks the host to send it again', async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([
      { kind: 'user', id: 'u1', text: 'answered' }, { kind: 'turnEnded', id: 'e1', stopReason: 'end_turn', detail: null },
      { kind: 'user', id: 'u2', text: 'lost to the reload', interrupted: true }]) });
    const row = harness.page.locator('[data-entry-id="u2"]');
    await row.locator('.user-interrupted').waitFor();
    assert.match(await row.locator('.user-interrupted').innerText(), /Interrupted/);
    assert.equal(await harness.page.locator('[data-entry-id="u1"] .user-interrupted').count(), 0);
    await screenshot(harness.page, 'user-message-interrupted');
    await row.locator('vscode-button', { hasText: 'Retry' }).click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'retryMessage'), [{ type: 'retryMessage', entryId: 'u2' }]);
  });
});
