/**
 * A frame larger than the frame store's whole byte budget (a line over the SDK's 32 MB limit)
 * leaves the store the moment it comes. Redacting it anyway, when the traffic paused, held the
 * extension host for seconds (about 0.35 s per MB here): the stress suite's sessions said ready
 * long after their agent's output had ended.
 */
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { type Frame } from '../../src/wire/frame';

const MB = 1024 * 1024;
const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

const chunk = (at: number, text: string): Frame => ({
  at,
  direction: 'in',
  text: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } }),
});

test('a frame over the store\'s byte budget is not redacted in the background, and the host is not held up', async (t) => {
  const store = new FrameStore(1000, MB);
  t.after(() => store.dispose());
  const huge = chunk(2, `${secret} ${'x'.repeat(16 * MB)}`);
  const after = chunk(3, `then ${secret} again. `);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  store.record(chunk(1, 'before. '));
  store.record(huge);
  store.record(after);
  const [shown] = (await store.redacted([after])) ?? [];
  delay.disable();

  assert.ok(shown && !shown.text.includes(secret), 'the frame after it is redacted as usual');
  assert.deepEqual(store.frames(), [after], 'the store kept none of it');
  assert.equal(await store.redacted([huge]), null, 'it never went through the background redaction');
  // Redacting 16 MB took about 6 s on this machine; a slice is 12 ms.
  assert.ok(delay.max / 1e6 < 1500, `the host was held up for ${Math.round(delay.max / 1e6)} ms`);
});
