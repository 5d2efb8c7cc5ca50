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
});
