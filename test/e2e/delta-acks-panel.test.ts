// The real webview bundle acknowledges the thread delta batches it applied, and the host paces
// its batches by those acks: a flood arrives whole, in fewer messages than chunks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { panelPerTest, scriptedPanelPresenter } from '../support/panelPerTest';

const panel = panelPerTest();
const CHUNKS = 3000;

describe('thread deltas paced by the panel', () => {
  test('the panel acks every delta batch it applied; a flood reaches the page whole', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    let batchesPosted = 0;
    scriptedPanelPresenter(t, harness, { watch: (message) => void (message.type === 'threadDeltas' && batchesPosted++) });
    const page = harness.page;
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });

    const input = page.locator('#composer-input textarea');
    await input.fill(`flood ${CHUNKS}`);
    await input.press('Enter');
    await page.locator('.turn-ended').first().waitFor({ state: 'attached', timeout: 60_000 });
    const acked = () => harness.sent.reduce((sum, message) => sum + (message.type === 'threadDeltasApplied' ? message.batches : 0), 0);
    await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));

    const text = await page.locator('.agent-message').last().innerText();
    assert.equal(text.match(/chunk-of-12/g)?.length, CHUNKS, 'every chunk is shown, none twice');
    assert.ok(batchesPosted > 1, `the flood came in ${batchesPosted} batches`);
    assert.ok(batchesPosted < CHUNKS / 10, `${CHUNKS} chunks merged into ${batchesPosted} batches`);
    assert.equal(acked(), batchesPosted, 'each batch the host posted was acknowledged once');
    assert.deepEqual(harness.pageErrors, []);
  });
});
