// Flow control of the panel's thread deltas: the host keeps one batch in flight until the
// webview acknowledges it, merging what arrives meanwhile, and never waits forever.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { parseWebviewMessage, type HostToWebview } from '../../src/contract/messages';
import type { ThreadDelta } from '../../src/contract/viewModel';
import { DeltaBatcher } from '../../src/panel/deltaBatcher';
import { allowedInReplay } from '../../src/panel/replayTab';
import { batchIntervalFor, FLOOD_FULL_AT_CHARS_PER_SECOND, FLOOD_INTERVAL_MS, FLOOD_STARTS_AT_CHARS_PER_SECOND, PACE_WINDOW_MS } from '../../src/panel/streamPace';
import { scriptedPresenter } from '../support/sessionBuilders';

const INTERVAL = 16;
const TIMEOUT = 250;

const append = (text: string, entryId = 'm'): ThreadDelta => ({ type: 'textAppended', entryId, text });

/** A batcher on mocked timers and clock, and the batches it handed over. */
function pacedBatcher(t: TestContext): { batcher: DeltaBatcher; sent: ThreadDelta[][] } {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const sent: ThreadDelta[][] = [];
  const batcher = new DeltaBatcher((deltas) => sent.push(deltas), INTERVAL, TIMEOUT);
  t.after(() => batcher.dispose());
  return { batcher, sent };
}

describe('delta batches paced by the webview', () => {
  test('one batch in flight: what follows waits and merges, and the ack sends it at once', (t) => {
    const { batcher, sent } = pacedBatcher(t);
    batcher.push(append('a'));
    t.mock.timers.tick(INTERVAL);
    assert.deepEqual(sent, [[append('a')]]);
    batcher.push(append('b'));
    t.mock.timers.tick(INTERVAL);
    batcher.push(append('c'));
    batcher.push({ type: 'entryAdded', entry: { kind: 'user', id: 'u', text: 'x' } });
    batcher.push(append('d'));
    t.mock.timers.tick(TIMEOUT - INTERVAL - 1);
    assert.equal(sent.length, 1, 'nothing more goes out while the first batch is unacknowledged');
    batcher.acknowledge(1);
    assert.deepEqual(sent, [[append('a')], [append('bc'), { type: 'entryAdded', entry: { kind: 'user', id: 'u', text: 'x' } }, append('d')]]);
    batcher.acknowledge(1);
    t.mock.timers.tick(TIMEOUT * 2);
    assert.equal(sent.length, 2, 'an ack with nothing pending sends nothing');
  });

  test('the first delta after a quiet interval goes out in the next task, with what the same task brought', (t) => {
    const { batcher, sent } = pacedBatcher(t);
    batcher.push(append('a'));
    batcher.push(append('b'));
    t.mock.timers.tick(1);
    assert.deepEqual(sent, [[append('ab')]], 'an answer\'s first words do not wait an interval');
    batcher.acknowledge(1);
    t.mock.timers.tick(INTERVAL);
    batcher.push(append('c'));
    t.mock.timers.tick(1);
    assert.deepEqual(sent, [[append('ab')], [append('c')]], 'quiet again: the next one goes at once too');
    batcher.push(append('d'));
    t.mock.timers.tick(1);
    batcher.acknowledge(1);
    assert.equal(sent.length, 2, 'a delta soon after a batch waits for the interval, merging what follows');
    t.mock.timers.tick(INTERVAL);
    assert.deepEqual(sent.at(-1), [append('d')]);
  });

  test('an ack sooner than the interval sends the next batch one interval after the previous, not before', (t) => {
    const { batcher, sent } = pacedBatcher(t);
    batcher.push(append('a'));
    t.mock.timers.tick(INTERVAL);
    batcher.push(append('b'));
    t.mock.timers.tick(5);
    batcher.acknowledge(1);
    assert.equal(sent.length, 1);
    t.mock.timers.tick(INTERVAL - 6);
    assert.equal(sent.length, 1);
    t.mock.timers.tick(1);
    assert.deepEqual(sent, [[append('a')], [append('b')]]);
  });

  test('a flush sends at once with a batch in flight, in order, and each flushed batch needs its own ack', (t) => {
    const { batcher, sent } = pacedBatcher(t);
    batcher.push(append('a'));
    t.mock.timers.tick(INTERVAL);
    batcher.push(append('b'));
    batcher.flush();
    assert.deepEqual(sent, [[append('a')], [append('b')]]);
    batcher.push(append('c'));
    t.mock.timers.tick(INTERVAL);
    batcher.acknowledge(1);
    assert.equal(sent.length, 2, 'the flushed batch is still in flight');
    batcher.acknowledge(1);
    assert.deepEqual(sent, [[append('a')], [append('b')], [append('c')]]);
    batcher.flush();
    assert.equal(sent.length, 3, 'a flush with nothing pending sends nothing');
  });

  test('a webview that never acks gets the next batch after the timeout, and the stream goes on', (t) => {
    const { batcher, sent } = pacedBatcher(t);
    batcher.push(append('a'));
    t.mock.timers.tick(INTERVAL);
    batcher.push(append('b'));
    t.mock.timers.tick(TIMEOUT - 1);
    assert.equal(sent.length, 1);
    t.mock.timers.tick(1);
    assert.deepEqual(sent, [[append('a')], [append('b')]]);
    batcher.push(append('c'));
    t.mock.timers.tick(TIMEOUT);
    assert.deepEqual(sent, [[append('a')], [append('b')], [append('c')]]);
  });

  test('discarding forgets the batch in flight: the next delta goes out one interval after it arrives', (t) => {
    const { batcher, sent } = pacedBatcher(t);
    batcher.push(append('a'));
    t.mock.timers.tick(INTERVAL);
    batcher.push(append('b'));
    batcher.discard();
    batcher.push(append('c'));
    t.mock.timers.tick(INTERVAL);
    assert.deepEqual(sent, [[append('a')], [append('c')]]);
  });
});

/**
 * A batcher on mocked timers with a webview that acknowledges every batch at once. Time moves a
 * millisecond at a time (the mocked clock reads the end of a longer tick inside its timers).
 */
function fastWebview(t: TestContext) {
  const { batcher, sent } = pacedBatcher(t);
  const sentAt: number[] = [];
  let now = 0;
  const advance = (ms: number) => {
    for (let step = 0; step < ms; step++) {
      const before = sent.length;
      t.mock.timers.tick(1);
      now++;
      for (let index = before; index < sent.length; index++) {
        sentAt.push(now);
        batcher.acknowledge(1);
      }
    }
  };
  /** `perMs` appends of `chunk` characters of `text` each millisecond, until it is all pushed. */
  const stream = (text: string, chunk: number, perMs: number) => {
    for (let offset = 0; offset < text.length; offset += chunk * perMs) {
      for (let index = 0; index < perMs && offset + index * chunk < text.length; index++) {
        batcher.push(append(text.slice(offset + index * chunk, offset + (index + 1) * chunk)));
      }
      advance(1);
    }
  };
  const delivered = () => sent.flat().map((delta) => (delta.type === 'textAppended' ? delta.text : '')).join('');
  return { batcher, sent, sentAt, advance, stream, delivered, now: () => now };
}

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - (times[index] as number));
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `${String(index).padStart(11, '0')} `).join('');

describe('delta batches follow the pace of the text', () => {
  test('the wait grows from a frame interval, past the pace of the fastest models, to FLOOD_INTERVAL_MS in a flood, never down', () => {
    assert.equal(batchIntervalFor(0, INTERVAL), INTERVAL);
    assert.equal(batchIntervalFor(FLOOD_STARTS_AT_CHARS_PER_SECOND, INTERVAL), INTERVAL);
    assert.equal(batchIntervalFor(FLOOD_FULL_AT_CHARS_PER_SECOND, INTERVAL), FLOOD_INTERVAL_MS);
    assert.equal(batchIntervalFor(FLOOD_FULL_AT_CHARS_PER_SECOND * 10, INTERVAL), FLOOD_INTERVAL_MS);
    const waits = [8_000, 60_000, 100_000, 120_000, 140_000, 200_000].map((pace) => batchIntervalFor(pace, INTERVAL));
    assert.deepEqual(waits, [...waits].sort((a, b) => a - b), `${waits.join(', ')}`);
    assert.ok(waits[2] as number > INTERVAL && (waits[2] as number) < FLOOD_INTERVAL_MS, `${waits.join(', ')}`);
  });

  test('text at 60,000 characters a second, several times what the fastest hosted models write, goes out every frame interval', (t) => {
    const webview = fastWebview(t);
    const text = numbered(2_000);
    webview.stream(text, 12, 5);
    webview.advance(INTERVAL);
    assert.equal(webview.delivered(), text);
    assert.ok(webview.sentAt.length >= 400 / (INTERVAL + 1), `${webview.sentAt.length} batches over 400 ms`);
    assert.ok(Math.max(...gaps(webview.sentAt)) <= INTERVAL + 1, `gaps ${gaps(webview.sentAt).join(', ')}`);
  });

  test('a flood (144,000 characters a second) goes out a few times a second, all of it, in order; the end still goes at once', (t) => {
    const webview = fastWebview(t);
    const text = numbered(24_000);
    webview.stream(text, 12, 12);
    webview.batcher.push(append('the end'));
    webview.batcher.flush();
    assert.equal(webview.delivered(), `${text}the end`, 'nothing dropped, nothing reordered');
    const between = gaps(webview.sentAt);
    const firstWindow = Math.ceil(PACE_WINDOW_MS / INTERVAL);
    assert.ok(webview.sentAt.length <= firstWindow + 2 + 2_000 / FLOOD_INTERVAL_MS, `${webview.sentAt.length} batches over 2 s: gaps ${between.join(', ')}`);
    assert.ok(between.slice(firstWindow + 1).every((gap) => gap >= FLOOD_INTERVAL_MS - 1 && gap <= FLOOD_INTERVAL_MS + 1), `gaps ${between.join(', ')}`);
  });

  test('in a flood, a tool call asking permission goes out a frame interval after the last batch, and the flood\'s pace resumes after it', (t) => {
    const webview = fastWebview(t);
    webview.stream(numbered(4_000), 12, 12);
    const before = webview.sent.length;
    const asking: ThreadDelta = {
      type: 'entryAdded',
      entry: {
        kind: 'toolCall', id: 'card',
        tool: { toolCallId: 't1', title: 'Edit a.ts', toolKind: 'edit', status: 'pending', content: [], locations: [], rawInput: null, rawOutput: null,
          permission: { requestId: 'r1', options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } },
      },
    };
    const lastSentAt = webview.sentAt.at(-1) as number;
    const pushedAt = webview.now();
    assert.ok(pushedAt - lastSentAt < FLOOD_INTERVAL_MS - INTERVAL, 'the flood\'s next batch is still far off');
    webview.batcher.push(asking);
    webview.advance(INTERVAL + 1);
    const carried = webview.sent.slice(before).findIndex((batch) => batch.includes(asking));
    assert.ok(carried >= 0, 'the card went out');
    const sentAt = webview.sentAt[before + carried] as number;
    assert.ok(sentAt <= Math.max(pushedAt, lastSentAt + INTERVAL) + 1, `pushed at ${pushedAt}, sent at ${sentAt}, the batch before at ${lastSentAt}`);
    const resumed = webview.sent.length;
    webview.stream(numbered(12_000), 12, 12);
    const later = gaps(webview.sentAt.slice(resumed));
    assert.ok(later.slice(-3).every((gap) => gap >= FLOOD_INTERVAL_MS - INTERVAL - 1), `gaps after it ${later.join(', ')}`);
  });

  test('a burst at a model\'s pace (a stall, then its backlog at once) is not a flood: batches stay a frame interval apart', (t) => {
    const webview = fastWebview(t);
    webview.stream(numbered(1_500), 12, 5);
    webview.advance(150);
    for (let index = 0; index < 750; index++) webview.batcher.push(append('x'.repeat(12)));
    webview.stream(numbered(1_500), 12, 5);
    const between = gaps(webview.sentAt).filter((gap) => gap < 100);
    assert.ok(between.length > 20 && between.every((gap) => gap <= INTERVAL + 1), `gaps ${gaps(webview.sentAt).join(', ')}`);
  });

  test('after a flood and a quiet spell, the next answer\'s first words go out at once and it streams every frame interval again', (t) => {
    const webview = fastWebview(t);
    webview.stream(numbered(12_000), 12, 12);
    webview.advance(FLOOD_INTERVAL_MS * 2);
    const afterFlood = webview.sent.length;
    webview.batcher.push(append('Next'));
    webview.advance(1);
    assert.deepEqual(webview.sent.slice(afterFlood), [[append('Next')]], 'the first words did not wait for the flood\'s interval');
    webview.stream(numbered(500), 12, 5);
    assert.ok(webview.sent.length - afterFlood >= 100 / (INTERVAL + 1), `${webview.sent.length - afterFlood} batches over 100 ms at 60,000 characters a second`);
  });
});

describe('the panel acknowledges delta batches', () => {
  test('the ack is a typed message: a positive whole count of batches, nothing else', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'threadDeltasApplied', batches: 2 }), { ok: true, message: { type: 'threadDeltasApplied', batches: 2 } });
    for (const bad of [{ type: 'threadDeltasApplied' }, { type: 'threadDeltasApplied', batches: 0 }, { type: 'threadDeltasApplied', batches: 1.5 }, { type: 'threadDeltasApplied', batches: '1' }]) {
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad));
    }
    assert.equal(allowedInReplay({ type: 'threadDeltasApplied', batches: 1 }), true, 'a replay tab streams too');
  });

  test('the presenter holds deltas while a batch is unacknowledged, sends them on the ack, and a new snapshot starts over', async (t) => {
    const panel = scriptedPresenter(t);
    await panel.ready();
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const thread = panel.session().thread;
    const notices = () => panel.posted.flatMap((message: HostToWebview) => message.type === 'threadDeltas'
      ? message.deltas.flatMap((delta) => (delta.type === 'entryAdded' && delta.entry.kind === 'notice' ? [delta.entry.text] : []))
      : []);
    const batchCount = () => panel.posted.filter((message) => message.type === 'threadDeltas').length;
    const before = batchCount();

    thread.addNotice('info', 'one');
    t.mock.timers.tick(INTERVAL);
    thread.addNotice('info', 'two');
    t.mock.timers.tick(INTERVAL * 3);
    assert.deepEqual(notices(), ['one'], 'the second waits for the ack');
    await panel.presenter.handle({ type: 'threadDeltasApplied', batches: 1 });
    assert.deepEqual(notices(), ['one', 'two']);
    assert.equal(batchCount(), before + 2);

    thread.addNotice('info', 'three');
    await panel.presenter.handle({ type: 'ready' });
    assert.equal(panel.posted.filter((message) => message.type === 'snapshot').length, 2, 'the reloaded view got a snapshot');
    const afterSnapshot = batchCount();
    thread.addNotice('info', 'four');
    t.mock.timers.tick(INTERVAL);
    assert.equal(batchCount(), afterSnapshot + 1, 'the unacknowledged batch before the snapshot holds nothing back');
    assert.deepEqual(notices().slice(-1), ['four']);
  });
});
