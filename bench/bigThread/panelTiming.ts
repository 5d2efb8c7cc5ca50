import type { Page } from 'playwright-core';
import type { HostToWebview } from '../../src/contract/messages';

/**
 * Runs in the page (a string: the bench's compiler would wrap named functions in helpers the
 * page does not have). The listener is registered after the panel's own, so it runs once the
 * panel has handled each message.
 */
const TIMED_POSTS = `async ({ messages, selector }) => {
  let left = messages.length;
  const handled = new Promise((resolve) => {
    const onMessage = () => {
      if (--left > 0) return;
      window.removeEventListener('message', onMessage);
      resolve();
    };
    window.addEventListener('message', onMessage);
  });
  const started = performance.now();
  for (const message of messages) window.postMessage(message, '*');
  await handled;
  await new Promise((resolve) => requestAnimationFrame(() => {
    const afterPaint = new MessageChannel();
    afterPaint.port1.onmessage = () => resolve();
    afterPaint.port2.postMessage(null);
  }));
  const elapsed = performance.now() - started;
  if (selector === null) return elapsed;
  const drawn = document.querySelector(selector);
  if (!drawn) throw new Error(selector + ' was not drawn in the frame after its message');
  // The thread follows its end: the card must be where the user looks, not only in the document.
  const view = document.getElementById('thread').getBoundingClientRect();
  const box = drawn.getBoundingClientRect();
  if (box.height === 0 || box.top < view.top - 1 || box.bottom > view.bottom + 1) throw new Error(selector + ' was drawn out of view');
  return elapsed;
}`;

/**
 * Posts each message to the panel as the host's messages arrive, then waits until the panel
 * handled the last one and the frame after it is painted; fails if `selector` is not drawn in view by then.
 * Milliseconds from the first post.
 */
export async function timedPosts(page: Page, messages: HostToWebview[], selector: string | null): Promise<number> {
  return page.evaluate<number>(`(${TIMED_POSTS})(${JSON.stringify({ messages, selector })})`);
}

