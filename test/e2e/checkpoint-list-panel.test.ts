// The panel's real bundle in Chromium: each prompt brings every message's checkpoint state; only
// the messages whose "Restore to here" looks different are drawn again (drawing all of them again
// held a long conversation's panel for a long frame at every prompt: bench/bigThread/checkpointList.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HostToWebview } from '../../src/contract/messages';
import type { MessageCheckpointView } from '../../src/contract/checkpointView';
import type { ThreadEntry } from '../../src/thread/entries';
import { panelState } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';

const panel = panelPerTest();

const PROMPTS = 40;
const entries: ThreadEntry[] = Array.from({ length: PROMPTS }, (_, index): ThreadEntry[] => [
  { kind: 'user', id: `u${index}`, text: `question ${index}` },
  { kind: 'agentMessage', id: `a${index}`, text: `answer ${index}` },
]).flat();

function list(change: (index: number) => Partial<MessageCheckpointView> = () => ({}), redo: string | null = null): HostToWebview {
  const messages = Array.from({ length: PROMPTS }, (_, index) => ({ entryId: `u${index}`, restorable: true, reason: null, lastRestored: false, ...change(index) }));
  return { type: 'checkpointUpdate', update: { kind: 'list', checkpoints: { messages, redo } } };
}

/** Marks every user message's element now on the page; `unmarked` later lists the ones drawn again since, by entry id. */
const MARK = `document.querySelectorAll('.user-message').forEach((row) => { row.dataset.seen = 'yes'; })`;
const UNMARKED = `[...document.querySelectorAll('.user-message')].filter((row) => row.dataset.seen !== 'yes').map((row) => row.dataset.entryId)`;

describe('checkpoint states in a long conversation', () => {
  test('an update draws again only the messages whose restore action changed, and shows the change', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    const { page } = harness;
    await harness.post({ type: 'snapshot', state: panelState(entries) });
    await harness.post(list());
    await page.locator('[data-entry-id="u39"] .checkpoint-actions').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.user-message .checkpoint-actions').count(), PROMPTS, 'every message offers a restore');

    await page.evaluate(MARK);
    await harness.post(list());
    await harness.post({ type: 'threadDeltas', deltas: [] });
    assert.deepEqual(await page.evaluate(UNMARKED), [], 'the same states draw nothing again');

    await harness.post(list((index) => (index === 3 ? { restorable: false, reason: 'Its copies were dropped to stay within 200 MB.' } : {})));
    await page.locator('[data-entry-id="u3"] .checkpoint-actions [title^="The files cannot be restored"]').waitFor({ timeout: 10_000 });
    assert.deepEqual(await page.evaluate(UNMARKED), ['u3']);
    assert.equal(await page.locator('[data-entry-id="u3"] .checkpoint-actions [title]').first().getAttribute('title'), 'The files cannot be restored: Its copies were dropped to stay within 200 MB.');

    await page.evaluate(MARK);
    await harness.post(list((index) => (index === 3 ? { restorable: false, reason: 'Its copies were dropped to stay within 200 MB.' } : index === 7 ? { lastRestored: true } : {}), 'Put back the 2 files the restore changed'));
    await page.locator('[data-entry-id="u7"] .checkpoint-actions', { hasText: 'Redo restore' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(await page.evaluate(UNMARKED), ['u7'], 'a redo shows on the message restored to, and nowhere else');
    assert.deepEqual(harness.pageErrors, []);
  });
});
