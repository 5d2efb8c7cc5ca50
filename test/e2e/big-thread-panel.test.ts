// A long thread in the panel's real bundle and CSP (Chromium harness): cards out of view are not
// laid out until they come into view, and none of that may show. 2,000 tool calls load with the
// last card in view (also when they come as a burst of messages), one more is drawn and followed, a
// card far above is drawn when scrolled to, "Show in thread" reaches one out of view, and thoughts
// fold once the agent moves on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThreadEntry } from '../../src/thread/entries';
import type { PanelHarness } from '../support/panelHarness';
import { panelState, toolEntry } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();
const KINDS = ['read', 'edit', 'execute', 'search', 'fetch'] as const;

function tool(i: number): ThreadEntry {
  const kind = KINDS[i % KINDS.length];
  return toolEntry(`t${i}`, {
    title: `${kind} step ${i}`, toolKind: kind, status: 'completed', locations: [{ path: `/w/src/file${i}.ts`, line: i }],
    content: i % 5 === 4 ? [{ type: 'text', text: `output of step ${i}` }] : [], rawInput: JSON.stringify({ path: `/w/src/file${i}.ts` }),
  });
}

/** Two frames: the one that draws what was posted, and the one after any size it learned. */
const frames = (harness: PanelHarness) => harness.page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

/** Whether the element is drawn where the user looks: inside the thread's box, and what a click on its middle would hit. */
function shown(harness: PanelHarness, selector: string): Promise<{ inView: boolean; hit: boolean }> {
  return harness.page.locator(selector).evaluate((node) => {
    const thread = (document.getElementById('thread') as HTMLElement).getBoundingClientRect();
    const box = node.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { inView: box.height > 0 && box.top >= thread.top - 1 && box.bottom <= thread.bottom + 1, hit: hit !== null && node.contains(hit) };
  });
}

const atBottom = (harness: PanelHarness) => harness.page.locator('#thread').evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight < 2);

describe('a long thread in the panel', () => {
  test('2,000 tool calls: the last card shows at the bottom, one more is followed, far cards draw when reached, and a scrolled-up reader is left where they are', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const entries: ThreadEntry[] = [{ kind: 'user', id: 'u', text: 'go' }, ...Array.from({ length: 2_000 }, (_, i) => tool(i))];
    await harness.post({ type: 'snapshot', state: panelState(entries) });
    await harness.page.locator('[data-entry-id="t1999"]').waitFor({ state: 'attached', timeout: 30_000 });
    await frames(harness);
    assert.deepEqual(await shown(harness, '[data-entry-id="t1999"] .tool-title'), { inView: true, hit: true }, 'the last card is drawn in view');
    assert.ok(await atBottom(harness), 'the thread is scrolled to its end');

    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: tool(2_000) }] });
    await frames(harness);
    assert.deepEqual(await shown(harness, '[data-entry-id="t2000"] .tool-title'), { inView: true, hit: true }, 'the appended card is drawn in view');
    assert.ok(await atBottom(harness), 'the thread followed the new card');

    await harness.page.locator('#thread').evaluate((node) => node.scrollTo({ top: 0 }));
    await frames(harness);
    assert.deepEqual(await shown(harness, '[data-entry-id="t0"] .tool-title'), { inView: true, hit: true }, 'the first card is drawn once scrolled to');
    assert.equal(await harness.page.locator('[data-entry-id="t0"] .tool-title').innerText(), 'read step 0');

    assert.equal(await harness.page.locator('[data-tool-call-id="call-t1000"]').evaluate((node) => node.checkVisibility({ contentVisibilityAuto: true })), false,
      'the card to reveal starts out not drawn (its part of the thread is out of view)');
    await harness.post({ type: 'revealToolCall', toolCallId: 'call-t1000' });
    await frames(harness);
    assert.deepEqual(await shown(harness, '[data-tool-call-id="call-t1000"] .tool-title'), { inView: true, hit: true }, 'Show in thread brings a card from far below into view');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: tool(2_001) }] });
    await frames(harness);
    assert.equal((await shown(harness, '[data-tool-call-id="call-t1000"] .tool-title')).inView, true, 'a reader looking at an earlier card is not pulled to the end');
    assert.equal(await atBottom(harness), false);
    assert.deepEqual(harness.pageErrors, []);
    await screenshot(harness.page, 'big-thread-revealed-card');
  });

  test('a card that comes right after streamed text is in view in the first frame after its message, a new block\'s first card included', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const entries: ThreadEntry[] = [{ kind: 'user', id: 'u', text: 'go' }, ...Array.from({ length: 1_990 }, (_, i) => tool(i)), { kind: 'agentMessage', id: 'm', text: 'Working through the files.\n\n' }];
    await harness.post({ type: 'snapshot', state: panelState(entries) });
    await harness.page.locator('[data-entry-id="m"]').waitFor({ state: 'attached', timeout: 30_000 });
    await frames(harness);
    // Text that costs the panel a few milliseconds to draw: the draw after it is the one a card must not wait for.
    const text = Array.from({ length: 12 }, (_, i) => `Step ${i} reads **file${i}.ts** and \`runs\` it.\n\n\`\`\`ts\nexport const step${i} = (n: number) => n * ${i};\n\`\`\`\n\n`).join('');
    const late: string[] = [];
    for (let i = 1_990; i < 2_010; i++) {
      await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'm', text }] });
      await harness.page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
      // Posted in the page and checked once the frame after it is painted (a task queued from its requestAnimationFrame), as the bench times it.
      const inView = await harness.page.evaluate((message) => new Promise<boolean>((resolve) => {
        window.addEventListener('message', () => requestAnimationFrame(() => {
          const after = new MessageChannel();
          after.port1.onmessage = () => {
            const card = document.querySelector(`[data-entry-id="${message.deltas[0]?.entry.id ?? ''}"]`);
            const view = (document.getElementById('thread') as HTMLElement).getBoundingClientRect();
            const box = card?.getBoundingClientRect();
            resolve(box !== undefined && box.height > 0 && box.top >= view.top - 1 && box.bottom <= view.bottom + 1);
          };
          after.port2.postMessage(null);
        }), { once: true });
        window.postMessage(message, '*');
      }), { type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: tool(i) }] } as { type: 'threadDeltas'; deltas: { type: 'entryAdded'; entry: ThreadEntry }[] });
      if (!inView) late.push(`t${i}`);
    }
    assert.deepEqual(late, [], 'no card waits past its first frame to be followed');
  });

  test('a burst of 2,000 tool calls in 20 messages back to back is followed to its last card', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    const batches = Array.from({ length: 20 }, (_, batch) => ({ type: 'threadDeltas', deltas: Array.from({ length: 100 }, (_, i) => ({ type: 'entryAdded', entry: tool(batch * 100 + i) })) }));
    // One task posts them all, so the thread's own scroll events arrive while more content keeps coming.
    await harness.page.evaluate((messages) => {
      for (const message of messages) window.postMessage(message, '*');
    }, batches);
    await harness.page.locator('[data-entry-id="t1999"]').waitFor({ state: 'attached', timeout: 30_000 });
    await frames(harness);
    assert.deepEqual(await shown(harness, '[data-entry-id="t1999"] .tool-title'), { inView: true, hit: true });
    assert.ok(await atBottom(harness));
    const order = await harness.page.locator('#thread [data-entry-id]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-entry-id')));
    assert.deepEqual(order, ['u', ...Array.from({ length: 2_000 }, (_, i) => `t${i}`)], 'every card is in the thread once, in the order it came');
  });

  test('open thoughts fold when the agent moves on to something else; one the user opens again stays open', async (t) => {
    const harness = await panel(t);
    const thought = (id: string) => harness.page.locator(`details.thought[data-entry-id="${id}"]`);
    const isOpen = (id: string) => thought(id).evaluate((node) => (node as HTMLDetailsElement).open);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }, { kind: 'thought', id: 'th1', text: 'first idea' }]) });
    await thought('th1').waitFor();
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'thought', id: 'th2', text: 'second idea' } }] });
    await thought('th2').waitFor();
    assert.deepEqual([await isOpen('th1'), await isOpen('th2')], [true, true], 'thinking in a row stays open');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'm1', text: 'The answer.' } }] });
    await harness.page.locator('[data-entry-id="m1"]').waitFor();
    assert.deepEqual([await isOpen('th1'), await isOpen('th2')], [false, false], 'the answer folds the thoughts before it');
    await thought('th1').locator('summary').click();
    assert.equal(await isOpen('th1'), true);
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: tool(0) }] });
    await harness.page.locator('[data-entry-id="t0"]').waitFor();
    assert.equal(await isOpen('th1'), true, 'the thought the user opened stays open');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'thought', id: 'th3', text: 'third idea' } }, { type: 'entryUpdated', entry: { kind: 'thought', id: 'th3', text: 'third idea, longer' } }] });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: tool(1) }] });
    await harness.page.locator('[data-entry-id="t1"]').waitFor();
    assert.equal(await isOpen('th3'), false, 'a thought drawn again while open still folds when the agent moves on');
  });
});
