// The panel's real bundle in Chromium: a delta batch that ends a turn shows the turn's last words
// in the same task as its end, not a frame after it (tests and the user both read the ended turn).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThreadDelta } from '../../src/thread/entries';
import { panelPerTest } from '../support/panelPerTest';
import { panelState } from '../support/panelFixtures';

const panel = panelPerTest();

const batch: ThreadDelta[] = [
  { type: 'entryAdded', entry: { kind: 'agentMessage', id: 'answer', text: 'The first words.' } },
  { type: 'textAppended', entryId: 'answer', text: ' The **last** words.' },
  { type: 'entryAdded', entry: { kind: 'turnEnded', id: 'end', stopReason: 'end_turn', detail: null } },
];

/**
 * Posts `deltas` to the page and reads the thread from a message listener added after the
 * panel's own, so in the task that applied them, before any animation frame.
 */
function readInTheSameTask(deltas: ThreadDelta[]): string {
  // A string, not a function: the TypeScript loader would add helpers the page does not have.
  return `new Promise((resolve) => {
    window.addEventListener('message', () => resolve({
      ended: document.querySelectorAll('.turn-ended').length,
      text: document.querySelector('.agent-message')?.innerText ?? null,
    }), { once: true });
    window.postMessage({ type: 'threadDeltas', deltas: ${JSON.stringify(deltas)} }, '*');
  })`;
}

describe('the end of a turn in the panel', () => {
  test('a batch that ends a turn draws the text before it in the task that attaches the end', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    const seen = await harness.page.evaluate(readInTheSameTask(batch));
    assert.deepEqual(seen, { ended: 1, text: 'The first words. The last words.' });
    assert.deepEqual(harness.pageErrors, []);
  });

  test('streamed text without a turn end still waits for a frame (the cadence is kept)', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    const seen = await harness.page.evaluate(readInTheSameTask(batch.slice(0, 2)));
    assert.deepEqual(seen, { ended: 0, text: '' });
    await harness.page.locator('.agent-message', { hasText: 'The first words. The last words.' }).waitFor({ timeout: 10_000 });
  });

  test('a plan whose turn was stopped shows no step as current, in the strip and in the thread', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    const items = [{ content: 'Read', status: 'completed', priority: 'low' }, { content: 'Edit the greeting', status: 'in_progress', priority: 'low' }] as const;
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }, { kind: 'plan', id: 'p', items: [...items] }]) });
    const strip = harness.page.locator('#plan-strip');
    assert.match(await strip.innerText(), /1\/2\s*Edit the greeting/);
    await harness.post({ type: 'threadDeltas', deltas: [
      { type: 'entryUpdated', entry: { kind: 'plan', id: 'p', items: [...items], stopped: true } },
      { type: 'entryAdded', entry: { kind: 'turnEnded', id: 'end', stopReason: 'cancelled', detail: null } }] });
    await strip.locator('.plan-current', { hasText: 'Stopped at: Edit the greeting' }).waitFor({ timeout: 5_000 });
    assert.equal(await harness.page.locator('.thread .plan.stopped').count(), 1);
  });
});
