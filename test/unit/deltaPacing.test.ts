// Flow control of the panel's thread deltas: the host keeps one batch in flight until the
// webview acknowledges it, merging what arrives meanwhile, and never waits forever.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { parseWebviewMessage, type HostToWebview } from '../../src/contract/messages';
import type { ThreadDelta } from '../../src/thread/entries';
import { DeltaBatcher } from '../../src/panel/deltaBatcher';
import { allowedInReplay } from '../../src/replay/panel/replayTab';
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
