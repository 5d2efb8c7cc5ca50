// A flood of streamed text into the panel's real bundle (Chromium harness, the extension's CSP):
// drawn less often while rendering is costly, yet every token ends up shown once, in order, and
// the last one is on screen a few frames after it arrives.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PanelHarness } from '../support/panelHarness';
import { panelState } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';

const panel = panelPerTest();

const paragraphs = Array.from({ length: 600 }, (_, i) => `Paragraph ${i} explains one step of the change, long enough to wrap in the panel.`);
const codes = Array.from({ length: 120 }, (_, i) => `const value${i} = ${i};\n\nexport const next${i} = value${i} + 1;\n`);

/** Paragraphs with a fenced block (holding a blank line) after every fifth, ending with `marker`. */
function answer(marker: string): string {
  const parts = paragraphs.map((paragraph, i) => (i % 5 === 4 ? `${paragraph}\n\n\`\`\`ts\n${codes[(i - 4) / 5]}\`\`\`\n\n` : `${paragraph}\n\n`));
  return `${parts.join('')}${marker}`;
}

/**
 * Posts `text` as the host would in a flood: `textAppended` messages of `perMessage` characters,
 * one every millisecond or so, from inside the page (so the page's frames run in between).
 * Resolves with the number of animation frames from the last message to `marker` in the DOM.
 */
function flood(harness: PanelHarness, entryId: string, text: string, perMessage: number, marker: string): Promise<number> {
  // A string, not a function: the TypeScript loader would add helpers the page does not have.
  return harness.page.evaluate(`new Promise((resolve) => {
    const [entryId, text, perMessage, marker] = ${JSON.stringify([entryId, text, perMessage, marker])};
    let framesSinceLast = -1;
    const countFrames = () => {
      if (framesSinceLast >= 0) framesSinceLast++;
      requestAnimationFrame(countFrames);
    };
    requestAnimationFrame(countFrames);
    const message = document.querySelector('[data-entry-id="' + entryId + '"]');
    new MutationObserver((_, observer) => {
      if (framesSinceLast < 0 || !(message.textContent ?? '').includes(marker)) return;
      observer.disconnect();
      resolve(framesSinceLast);
    }).observe(message, { childList: true, subtree: true, characterData: true });
    let offset = 0;
    const next = () => {
      window.postMessage({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId, text: text.slice(offset, offset + perMessage) }] }, '*');
      offset += perMessage;
      if (offset < text.length) setTimeout(next, 1);
      else framesSinceLast = 0;
    };
    next();
  })`) as Promise<number>;
}

/**
 * Half of an answer shown and followed; then, while the rest streams in (a delta every 20 ms), `scroll`
 * (page script with `thread` and `resolve` in scope) scrolls the reader up and resolves with where it
 * left them. Expects the view still there once the rest has arrived and settled, the rest below it.
 */
async function expectReaderLeftWhereTheyScrolled(harness: PanelHarness, scroll: string): Promise<void> {
  await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
  await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'flood', text: '' } }] });
  const text = answer('');
  const half = Math.floor(text.length / 2);
  await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'flood', text: text.slice(0, half) }] });
  await harness.page.waitForTimeout(500);
  const thread = harness.page.locator('#thread');
  const readerAt = await thread.evaluate(`new Promise((resolve) => {
    const thread = document.querySelector('#thread');
    const rest = ${JSON.stringify(text.slice(half))};
    let offset = 0;
    const stream = setInterval(() => {
      window.postMessage({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'flood', text: rest.slice(offset, offset + 400) }] }, '*');
      offset += 400;
      if (offset >= rest.length) clearInterval(stream);
    }, 20);
    ${scroll}
  })`) as number;
  await harness.page.locator('[data-entry-id="flood"] p', { hasText: paragraphs.at(-1) as string }).waitFor({ timeout: 15_000 });
  await harness.page.waitForTimeout(500);
  const after = await thread.evaluate((element) => ({ top: element.scrollTop, fromEnd: element.scrollHeight - element.scrollTop - element.clientHeight }));
  assert.ok(Math.abs(after.top - readerAt) <= 2, `the reader scrolled to ${readerAt}; the view is at ${after.top}, ${after.fromEnd} px from the end`);
  assert.ok(after.fromEnd > 1_000, `the rest of the answer is below the reader: ${after.fromEnd} px`);
  assert.deepEqual(harness.pageErrors, []);
}

describe('streaming a flood into the panel', () => {
  test('every paragraph and code block of a flooded answer is shown once, in order, and the last line within a few frames of arriving', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const marker = 'END-OF-FLOOD';
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'flood', text: '' } }] });
    const frames = await flood(harness, 'flood', answer(marker), 180, marker);
    assert.ok(frames <= 12, `the last line was drawn ${frames} frames after it arrived`);
    const message = harness.page.locator('[data-entry-id="flood"]');
    assert.deepEqual(await message.locator('p').allTextContents(), [...paragraphs, marker], 'every paragraph once, in order');
    assert.deepEqual(await message.locator('pre code').allTextContents(), codes, 'every code block whole, blank lines included, in order');
    const blocks = await message.locator('.md-block').count();
    assert.ok(blocks < 30, `about 65 KB in blocks of about 8 KB, not one per frame: ${blocks} blocks`);
    assert.deepEqual(harness.pageErrors, []);
  });
  test('a flood in the host\'s flood batches (four a second) is followed to its last line, which stays in view once the text has settled', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const marker = 'END-OF-BIG-BATCHES';
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'flood', text: '' } }] });
    const text = `${answer('').repeat(3)}${marker}`;
    for (let offset = 0; offset < text.length; offset += 32_000) {
      await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'flood', text: text.slice(offset, offset + 32_000) }] });
      await harness.page.waitForTimeout(250);
    }
    const last = harness.page.locator('[data-entry-id="flood"] p', { hasText: marker });
    await last.waitFor({ timeout: 10_000 });
    const inView = () => harness.page.evaluate(`(() => {
      const thread = document.querySelector('#thread');
      const paragraph = [...document.querySelectorAll('[data-entry-id="flood"] p')].at(-1);
      const box = paragraph.getBoundingClientRect();
      const view = thread.getBoundingClientRect();
      return { visible: box.bottom <= view.bottom + 1 && box.top >= view.top - 1, fromEnd: thread.scrollHeight - thread.scrollTop - thread.clientHeight, text: paragraph.textContent };
    })()`) as Promise<{ visible: boolean; fromEnd: number; text: string }>;
    await harness.page.waitForTimeout(100);
    assert.deepEqual(await inView(), { visible: true, fromEnd: 0, text: marker }, 'the last line is in view when it is drawn');
    await harness.page.waitForTimeout(1_000);
    assert.deepEqual(await inView(), { visible: true, fromEnd: 0, text: marker }, 'and still in view once the blocks above have been laid out');
    assert.deepEqual(harness.pageErrors, []);
  });
  test('a reader who scrolled up during a flood is left where they are while the rest arrives and settles', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'flood', text: '' } }] });
    const text = answer('').repeat(3);
    const half = Math.floor(text.length / 2);
    for (let offset = 0; offset < half; offset += 32_000) {
      await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'flood', text: text.slice(offset, Math.min(half, offset + 32_000)) }] });
      await harness.page.waitForTimeout(250);
    }
    const thread = harness.page.locator('#thread');
    await thread.hover();
    await harness.page.mouse.wheel(0, -3_000);
    await harness.page.waitForTimeout(300);
    const scrollTop = () => thread.evaluate((element) => element.scrollTop);
    const readerAt = await scrollTop();
    for (let offset = half; offset < text.length; offset += 32_000) {
      await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'flood', text: text.slice(offset, offset + 32_000) }] });
      await harness.page.waitForTimeout(250);
    }
    await harness.page.waitForTimeout(1_000);
    assert.ok(Math.abs((await scrollTop()) - readerAt) <= 2, `the reader was at ${readerAt}, the view is at ${await scrollTop()}`);
    const lastTop = await harness.page.locator('[data-entry-id="flood"] p').last().evaluate((paragraph) => paragraph.getBoundingClientRect().top);
    const viewBottom = await thread.evaluate((element) => element.getBoundingClientRect().bottom);
    assert.ok(lastTop > viewBottom, `the last paragraph (top ${lastTop}) is below the view (bottom ${viewBottom})`);
    assert.deepEqual(harness.pageErrors, []);
  });
  test('a reader whose scroll up starts with a step of a few pixels, as a smooth wheel scroll does, is not pulled back to the end', { timeout: 120_000 }, async (t) => {
    // One wheel event, then the browser's animation of the scroll it asks for: 8 px first, 2,000 px in all, a frame per step.
    await expectReaderLeftWhereTheyScrolled(await panel(t), `
    thread.dispatchEvent(new WheelEvent('wheel', { deltaY: -2000, bubbles: true }));
    const start = thread.scrollTop;
    const steps = [8, 120, 600, 1400, 2000];
    const step = () => {
      thread.scrollTop = start - steps.shift();
      if (steps.length > 0) requestAnimationFrame(step);
      else resolve(thread.scrollTop);
    };
    requestAnimationFrame(step);
    `);
  });
  test('a wheel up that comes between the view\'s own scroll to the end and that scroll\'s event is not undone by the event', { timeout: 120_000 }, async (t) => {
    // Right after the view scrolls itself to the end (its scroll event comes in the next frame), the
    // reader's wheel; the wheel's own scroll, 2,000 px up, in the frame after that event.
    await expectReaderLeftWhereTheyScrolled(await panel(t), `
    // The panel's next scroll of the view to the end is seen as it is set; the wheel follows at once.
    const scrollTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
    Object.defineProperty(thread, 'scrollTop', {
      configurable: true,
      get() { return scrollTop.get.call(this); },
      set(value) {
        const before = scrollTop.get.call(this);
        scrollTop.set.call(this, value);
        // A set that does not move the view has no scroll event to come.
        if (scrollTop.get.call(this) === before) return;
        delete thread.scrollTop;
        queueMicrotask(() => {
          thread.dispatchEvent(new WheelEvent('wheel', { deltaY: -2000, bubbles: true }));
          const start = thread.scrollTop;
          requestAnimationFrame(() => {
            // More text arrives with it, as it does all the while an agent streams.
            window.postMessage({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'flood', text: 'More text.\\n\\n' }] }, '*');
            thread.scrollTop = start - 2000;
            resolve(thread.scrollTop);
          });
        });
      },
    });
    `);
  });
});
