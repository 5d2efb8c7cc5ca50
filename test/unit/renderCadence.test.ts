import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RenderCadence } from '../../webview/renderCadence';

/** Frame times at 60 Hz from `start`, as requestAnimationFrame gives them. */
const frame = (start: number, index: number) => start + (index * 1000) / 60;

/** The frames among the next `count` after a render at `start` that the cadence renders in, by index. */
function renderedFrames(cadence: RenderCadence, start: number, count: number, draw: () => boolean = () => false): number[] {
  const rendered: number[] = [];
  for (let index = 1; index <= count; index++) {
    const now = frame(start, index);
    if (!cadence.due(now)) continue;
    cadence.render(now, draw);
    rendered.push(index);
  }
  return rendered;
}

describe('how often streamed text is drawn', () => {
  test('the first render is due at once; cheap renders then come every second frame at 60 Hz, not every frame', () => {
    const cadence = new RenderCadence();
    assert.equal(cadence.due(frame(1_000, 0)), true);
    cadence.render(frame(1_000, 0), () => false);
    assert.deepEqual(renderedFrames(cadence, 1_000, 8), [2, 4, 6, 8]);
  });

  test('a render that left a backlog is followed in the very next frame until the backlog is gone', () => {
    const cadence = new RenderCadence();
    let left = 3;
    cadence.render(frame(0, 0), () => --left > 0);
    assert.deepEqual(renderedFrames(cadence, 0, 6, () => --left > 0), [1, 2, 4, 6]);
  });

  test('costly renders are spaced by three times their cost, and never more than 100 ms apart', () => {
    const costly = (ms: number) => () => {
      const until = performance.now() + ms;
      while (performance.now() < until) { /* the render's own cost */ }
      return false;
    };
    const spaced = new RenderCadence();
    spaced.render(0, costly(20));
    assert.equal(spaced.due(50), false, 'a 20 ms render waits three times that, past the 30 ms every render waits');
    assert.equal(spaced.due(100), true);
    const capped = new RenderCadence();
    capped.render(0, costly(60));
    assert.equal(capped.due(99), false);
    assert.equal(capped.due(100), true, 'even a 60 ms render waits no more than 100 ms');
  });
});
