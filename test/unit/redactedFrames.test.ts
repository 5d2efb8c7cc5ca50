import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import { redactFrames } from '../../src/redaction/frameRedaction';
import { FrameStore } from '../../src/acp/frames';
import { type Frame } from '../../src/wire/frame';
import { storeRedaction } from '../../src/redaction/slicedRedaction';
import { exportFrames } from '../../src/inspector/recording';
import { REDACTED } from '../../src/redaction/secrets';
import { FrameScript } from '../support/frameBuilders';
import { generated } from '../support/secretFormats';

const token = () => `github_pat_11${generated(7, 20)}_${generated(8, 59)}`;

/** A conversation with credentials in every place the redaction looks: split across streamed pieces, in a tool call, in an fs answer, at the very end inside a word. */
function conversation(turns: number): Frame[] {
  const script = new FrameScript().open('s1');
  for (let turn = 0; turn < turns; turn++) {
    const secret = token();
    const cut = 5 + (turn % 30);
    script.request('out', 10 + turn, 'session/prompt', { sessionId: 's1', prompt: [{ type: 'text', text: `turn ${turn} with ${token()}` }] });
    for (const text of [`Use ${secret.slice(0, cut)}`, `${secret.slice(cut)} to push. `, 'then wor', 'ds follow. ']) {
      script.update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    }
    script.toolCall('s1', `t${turn}`, 'execute', { rawInput: { command: `curl -H "Authorization: Bearer ${token()}" x` } });
    script.request('in', turn, 'fs/read_text_file', { sessionId: 's1', path: '/work/.env' }).result('out', turn, { content: `API_KEY=${token()}\n` });
    script.update('s1', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `thinking about ${secret.slice(0, 12)}` } });
  }
  return script.update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `the last one is ${token().slice(0, 20)}` } }).frames;
}

function stored(frames: readonly Frame[]): FrameStore {
  const store = new FrameStore();
  for (const frame of frames) store.record(frame);
  return store;
}

describe('frames redacted once, by the store', () => {
  test('give exactly what redacting the whole conversation afresh gives, held pieces at the end included', async (t) => {
    const frames = conversation(40);
    const store = stored(frames);
    t.after(() => store.dispose());
    const expected = redactFrames(frames);
    assert.deepEqual(await store.redacted(store.frames()), expected);
    const shown = expected.map((frame) => frame.text).join('\n');
    assert.ok(shown.includes(REDACTED));
    assert.ok(!/github_pat_11/.test(shown), 'no token shows');
  });

  test('a look in the middle changes nothing of what comes after', async (t) => {
    const frames = conversation(12);
    const store = new FrameStore();
    t.after(() => store.dispose());
    // Stops after a piece that ends inside a word: the look shows it masked, the stream goes on.
    const half = frames.findIndex((frame, index) => index > frames.length / 2 && frame.text.includes('then wor')) + 1;
    assert.ok(half > 0);
    for (const frame of frames.slice(0, half)) store.record(frame);
    assert.deepEqual(await store.redacted(store.frames()), redactFrames(frames.slice(0, half)));
    for (const frame of frames.slice(half)) store.record(frame);
    assert.deepEqual(await store.redacted(store.frames()), redactFrames(frames));
  });

  test('a conversation out of the window takes its frames as the window redacted them', async (t) => {
    const frames = conversation(3);
    const store = stored(frames);
    t.after(() => store.dispose());
    const all = await store.redacted(store.frames());
    const some = store.frames().filter((_, index) => index % 3 === 0);
    assert.deepEqual(await store.redacted(some), all?.filter((_, index) => index % 3 === 0));
  });

  test('frames the store does not hold are redacted afresh, the same way', async (t) => {
    const store = stored(conversation(2));
    t.after(() => store.dispose());
    const foreign = conversation(5);
    assert.equal(await store.redacted(foreign), null);
    assert.equal(await exportFrames(foreign, storeRedaction(store)), await exportFrames(foreign));
  });

  test('frames dropped from a full store before their turn are left out of the redaction, and a look still answers', async (t) => {
    const store = new FrameStore(10);
    t.after(() => store.dispose());
    const frames = conversation(4);
    for (const frame of frames) store.record(frame);
    const kept = store.frames();
    assert.equal(kept.length, 10);
    assert.equal(await store.redacted([frames[0] as Frame]), null, 'the first frame left the store unredacted');
    assert.equal((await store.redacted(kept))?.length, 10);
  });

  test('a redaction started in a pause gives the host back when the traffic resumes, and finishes in the next pause', async (t) => {
    const store = new FrameStore(100_000);
    t.after(() => store.dispose());
    const earlier = conversation(1000);
    for (const frame of earlier) store.record(frame);
    // The store starts redacting once the traffic has paused: wait until the host is busy with it.
    const busy = async (ms: number) => {
      const before = performance.eventLoopUtilization();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return performance.eventLoopUtilization(before).utilization;
    };
    const waitedFrom = Date.now();
    // Quiet first (recording them is over), then busy: the redaction has begun.
    while ((await busy(20)) > 0.2) assert.ok(Date.now() - waitedFrom < 5000, 'the host never went quiet after recording');
    while ((await busy(20)) < 0.5) assert.ok(Date.now() - waitedFrom < 5000, 'the store never started redacting in the pause');
    // The agent streams again: a frame every 5 ms.
    const later = new FrameScript().open('s2');
    const streaming = busy(150);
    const recorded: Frame[] = [];
    const streamed = setInterval(() => {
      const frame = later.update('s2', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'more words ' } }).frames.at(-1) as Frame;
      recorded.push(frame);
      store.record(frame);
    }, 5);
    const utilization = await streaming;
    clearInterval(streamed);
    assert.ok(utilization < 0.5, `the host was busy ${Math.round(utilization * 100)}% of the time the agent streamed`);
    const all = [...earlier, ...recorded];
    assert.deepEqual((await store.redacted(all))?.map((frame) => frame.text), redactFrames(all).map((frame) => frame.text), 'every frame redacted in the end, as afresh');
  });
});
