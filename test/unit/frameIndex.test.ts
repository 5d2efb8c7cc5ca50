import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { conversationFrames } from '../../src/inspector/conversationFrames';
import { filterFrames, NO_FILTER } from '../../src/inspector/frameFilter';
import { deliveryMarks } from '../../src/inspector/deliveryCheck';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { FrameScript } from '../support/frameBuilders';

describe('frame index: pairing', () => {
  test('a request and its answer point at each other, with the latency on both', () => {
    const script = new FrameScript().open('s1');
    const index = buildFrameIndex(script.frames);
    const [init, initAnswer, create, created] = index.frames;
    assert.equal(init?.pair, 1);
    assert.equal(initAnswer?.pair, 0);
    assert.equal(init?.latencyMs, 5);
    assert.equal(initAnswer?.latencyMs, 5);
    assert.equal(initAnswer?.method, 'initialize');
    assert.equal(created?.method, 'session/new');
    assert.equal(created?.sessionId, 's1', 'session/new answers with the session it opened');
    assert.equal(create?.sessionId, 's1', 'and the request takes it too');
  });

  test('ids are per direction: the agent\'s request #1 is not the client\'s #1', () => {
    const script = new FrameScript()
      .request('out', 1, 'session/prompt', { sessionId: 's1', prompt: [] })
      .request('in', 1, 'fs/read_text_file', { sessionId: 's1', path: '/a' })
      .result('out', 1, { content: 'a' }, 2)
      .result('in', 1, { stopReason: 'end_turn' }, 7);
    const [prompt, read, readAnswer, promptAnswer] = buildFrameIndex(script.frames).frames;
    assert.equal(read?.pair, readAnswer?.index);
    assert.equal(readAnswer?.method, 'fs/read_text_file');
    assert.equal(prompt?.pair, promptAnswer?.index);
    assert.equal(promptAnswer?.method, 'session/prompt');
    assert.equal(prompt?.latencyMs, 10);
    assert.equal(read?.latencyMs, 2);
  });

  test('string and number ids differ; an error answer carries its code; an answer nobody asked for is marked', () => {
    const script = new FrameScript()
      .request('out', '1', 'session/load', { sessionId: 's1' })
      .error('in', 1, -32601, 'Method not found')
      .error('in', '1', -32601, 'Method not found');
    const [load, stray, answer] = buildFrameIndex(script.frames).frames;
    assert.equal(load?.pair, 2);
    assert.equal(answer?.errorCode, -32601);
    assert.equal(stray?.pair, null);
    assert.equal(stray?.mark?.kind, 'malformed');
  });
});

describe('frame index: marks', () => {
  test('lines that are not JSON, not JSON-RPC, or a session/update of an unknown kind are marked with the reason', () => {
    const script = new FrameScript()
      .line('in', 'Loaded 3 extensions')
      .line('in', '{"id": 4, "result": {}}')
      .update('s1', { sessionUpdate: 'teleport_update' })
      .update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    const [text, noVersion, unknown, fine] = buildFrameIndex(script.frames).frames;
    assert.deepEqual(text?.mark, { kind: 'malformed', reason: 'not JSON' });
    assert.match(noVersion?.mark?.reason ?? '', /JSON-RPC 2\.0/);
    assert.equal(unknown?.mark?.kind, 'unknown');
    assert.match(unknown?.mark?.reason ?? '', /teleport_update/);
    assert.equal(fine?.mark, null);
  });
});

describe('frame index: attribution to tool calls', () => {
  const script = new FrameScript()
    .open('s1')
    .request('out', 2, 'session/prompt', { sessionId: 's1', prompt: [] })
    .toolCall('s1', 'read-1', 'read')
    .request('in', 0, 'fs/read_text_file', { sessionId: 's1', path: '/work/a.ts' })
    .result('out', 0, { content: 'x' })
    .toolDone('s1', 'read-1')
    .toolCall('s1', 'edit-1', 'edit')
    .request('in', 1, 'session/request_permission', { sessionId: 's1', toolCall: { toolCallId: 'edit-1' }, options: [] })
    .result('out', 1, { outcome: { outcome: 'selected', optionId: 'allow' } })
    .request('in', 2, 'fs/read_text_file', { sessionId: 's1', path: '/work/b.ts' })
    .result('out', 2, { content: 'y' })
    .request('in', 3, 'fs/write_text_file', { sessionId: 's1', path: '/work/b.ts', content: 'z' })
    .result('out', 3, null)
    .toolDone('s1', 'edit-1')
    .toolCall('s1', 'run-1', 'execute')
    .request('in', 4, 'terminal/create', { sessionId: 's1', command: 'npm', args: ['test'] })
    .result('out', 4, { terminalId: 't1' })
    .toolDone('s1', 'run-1')
    .request('in', 5, 'terminal/output', { sessionId: 's1', terminalId: 't1' })
    .result('out', 5, { output: 'ok', truncated: false })
    .request('in', 6, 'fs/write_text_file', { sessionId: 's1', path: '/work/c.ts', content: '' })
    .result('out', 6, null)
    .result('in', 2, { stopReason: 'end_turn' });
  const index = buildFrameIndex(script.frames);
  const methodsOf = (toolCallId: string) => (index.byToolCall.get(toolCallId) ?? []).map((i) => `${index.frames[i]?.direction} ${index.frames[i]?.method ?? index.frames[i]?.updateKind}`);

  test('a read tool call owns its updates and the fs read made while it ran, with the answer', () => {
    assert.deepEqual(methodsOf('read-1'), ['in session/update', 'in fs/read_text_file', 'out fs/read_text_file', 'in session/update']);
  });

  test('an edit owns its permission request and answer, and the read and write made while it ran', () => {
    assert.deepEqual(methodsOf('edit-1'), [
      'in session/update', 'in session/request_permission', 'out session/request_permission',
      'in fs/read_text_file', 'out fs/read_text_file', 'in fs/write_text_file', 'out fs/write_text_file', 'in session/update',
    ]);
  });

  test('terminal calls follow the terminal to the call that created it, even after it ended', () => {
    assert.deepEqual(methodsOf('run-1'), [
      'in session/update', 'in terminal/create', 'out terminal/create', 'in session/update', 'in terminal/output', 'out terminal/output',
    ]);
  });

  test('a write while no edit runs belongs to no tool call', () => {
    const orphan = index.frames.find((frame) => frame.method === 'fs/write_text_file' && frame.direction === 'in' && frame.id === '6');
    assert.equal(orphan?.toolCallId, null);
  });

  test('a terminal the agent shows in a tool call\'s content belongs to that call', () => {
    const shown = new FrameScript()
      .toolCall('s1', 'other', 'execute')
      .request('in', 0, 'terminal/create', { sessionId: 's1', command: 'ls' })
      .toolCall('s1', 'mine', 'execute', { content: [{ type: 'terminal', terminalId: 't9' }] })
      .result('out', 0, { terminalId: 't9' })
      .request('in', 1, 'terminal/wait_for_exit', { sessionId: 's1', terminalId: 't9' });
    const built = buildFrameIndex(shown.frames);
    assert.equal(built.frames[4]?.toolCallId, 'mine');
  });

  test('filters: by tool call, direction, method, text and marks, in one pass', () => {
    assert.deepEqual(filterFrames(index, script.frames, { ...NO_FILTER, toolCallId: 'edit-1', direction: 'out' }).map((i) => index.frames[i]?.method), ['session/request_permission', 'fs/read_text_file', 'fs/write_text_file']);
    assert.equal(filterFrames(index, script.frames, { ...NO_FILTER, method: 'fs/write_text_file' }).length, 4);
    assert.deepEqual(filterFrames(index, script.frames, { ...NO_FILTER, text: 'B.TS' }).map((i) => index.frames[i]?.id), ['2', '3']);
    assert.deepEqual(filterFrames(index, script.frames, { ...NO_FILTER, text: '(' }), [], 'the search is literal text, not a pattern');
    assert.equal(filterFrames(index, script.frames, NO_FILTER).length, script.frames.length);
    assert.deepEqual(filterFrames(index, script.frames, { ...NO_FILTER, markedOnly: true }), []);
    assert.deepEqual(filterFrames(index, script.frames, { ...NO_FILTER, toolCallId: 'nobody' }), []);
  });

  test('the methods seen are offered sorted', () => {
    assert.deepEqual(index.methods.slice(0, 3), ['fs/read_text_file', 'fs/write_text_file', 'initialize']);
  });
});

describe('one conversation out of the window\'s traffic', () => {
  test('its session\'s frames and the initialize before it, not another agent\'s', () => {
    const script = new FrameScript()
      .open('other', { agentName: 'first' })
      .request('out', 2, 'session/prompt', { sessionId: 'other', prompt: [] })
      .open('mine', { agentName: 'second' })
      .update('other', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'not mine' } })
      .request('out', 2, 'session/prompt', { sessionId: 'mine', prompt: [] })
      .update('mine', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'mine' } })
      .result('in', 2, { stopReason: 'end_turn' })
      .result('in', 2, { stopReason: 'end_turn' });
    const index = buildFrameIndex(script.frames);
    const picked = conversationFrames(script.frames, index, new Set(['mine']));
    const texts = picked.map((frame) => frame.text);
    assert.equal(picked.length, 7);
    assert.ok(texts.some((text) => text.includes('"second"')));
    assert.ok(!texts.some((text) => text.includes('"first"') || text.includes('not mine')));
    assert.deepEqual(conversationFrames(script.frames, index, new Set(['none'])), []);
  });
});

describe('delivery check', () => {
  test('updates the SDK drops or changes on the way are marked dropped or salvaged, with what changed', async () => {
    const script = new FrameScript()
      .update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'fine' } })
      .update('s1', { sessionUpdate: 'tool_call', title: 'no id' })
      .update('s1', { sessionUpdate: 'tool_call', toolCallId: 'a', title: 't', kind: 'teleport' })
      .update('s1', { sessionUpdate: 'mystery_update' })
      .update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'nonsense' } })
      .update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'after' } })
      .request('in', 0, 'fs/read_text_file', { sessionId: 's1', path: '/a' });
    const marks = await deliveryMarks(script.frames, buildFrameIndex(script.frames));
    assert.deepEqual([...marks.keys()], [1, 2, 3, 4]);
    assert.equal(marks.get(1)?.kind, 'dropped');
    assert.deepEqual(marks.get(2), { kind: 'salvaged', reason: 'the SDK changed it on the way (update.kind): the conversation got the rest' });
    assert.equal(marks.get(3)?.kind, 'dropped');
    assert.equal(marks.get(4)?.kind, 'dropped');
  });
});
