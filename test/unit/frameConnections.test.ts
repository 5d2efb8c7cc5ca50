import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { conversationFrames } from '../../src/inspector/conversationFrames';
import { NO_FILTER } from '../../src/inspector/frameFilter';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { InspectorModel } from '../../src/inspector/inspectorModel';
import { readRecording, recordingHeader, writeRecording } from '../../src/inspector/recording';
import { parseInspectorMessage } from '../../src/contract/inspectorView';
import { scriptedEnvironment, scriptedSession } from '../support/sessionBuilders';
import type { TestScope } from '../support/sessionBuilders';

/** Two conversations of one window with their own agent processes, started at the same time. */
async function twoConnections(t: TestScope) {
  const environment = scriptedEnvironment(t);
  const first = scriptedSession(t, { environment, definition: { shareProcess: false } });
  const second = scriptedSession(t, { environment, definition: { shareProcess: false, id: 'scripted-2' } });
  await Promise.all([first.start(), second.start()]);
  await Promise.all([first.prompt('hello'), second.prompt('tool')]);
  return { frames: environment.frames.frames(), first, second };
}

describe('frames carry their connection', () => {
  test('each agent process has its own number on every frame, both ways; the inspector names and filters them', async (t) => {
    const { frames } = await twoConnections(t);
    const numbers = [...new Set(frames.map((frame) => frame.connection))];
    assert.equal(numbers.length, 2, `two connections: ${numbers.join(', ')}`);
    assert.ok(numbers.every((number) => typeof number === 'number'));
    for (const number of numbers) {
      const own = frames.filter((frame) => frame.connection === number);
      assert.ok(own.some((frame) => frame.direction === 'in') && own.some((frame) => frame.direction === 'out'));
      assert.equal(own.filter((frame) => frame.text.includes('"method":"initialize"')).length, 1, 'one initialize per connection');
    }
    const model = new InspectorModel(frames);
    const connections = model.connections();
    assert.deepEqual(connections.map((view) => view.connection), numbers);
    assert.ok(connections.every((view) => view.agent !== null && /scripted/i.test(view.agent)), JSON.stringify(connections));
    const visible = await model.applyFilter({ ...NO_FILTER, connection: numbers[1] as number });
    assert.deepEqual(visible, frames.flatMap((frame, index) => (frame.connection === numbers[1] ? [index] : [])));
    assert.ok(model.rows().every((row, index) => row.connection === frames[index]?.connection));
    assert.ok(parseInspectorMessage({ type: 'filter', filter: { ...NO_FILTER, connection: 2 } }));
    assert.equal(parseInspectorMessage({ type: 'filter', filter: { ...NO_FILTER, connection: 'two' } }), null);
  });

  test("a conversation's frames open with its own connection's initialize, not the one that came last", async (t) => {
    const { frames, first, second } = await twoConnections(t);
    const index = buildFrameIndex(frames);
    for (const session of [first, second]) {
      const own = conversationFrames(frames, index, new Set([session.currentSessionId as string]));
      const number = own.find((frame) => frame.text.includes('"session/new"'))?.connection;
      assert.ok(number !== undefined);
      assert.ok(own.every((frame) => frame.connection === number), 'no frame of the other connection');
      assert.ok(own.some((frame) => frame.text.includes('"method":"initialize"')), 'its own setup is in');
    }
  });

  test('a recording keeps the connection of each frame', async (t) => {
    const { frames } = await twoConnections(t);
    const text = await writeRecording(recordingHeader(frames, null, new Date()), frames);
    assert.deepEqual(readRecording(text).frames.map((frame) => frame.connection), frames.map((frame) => frame.connection));
  });
});
