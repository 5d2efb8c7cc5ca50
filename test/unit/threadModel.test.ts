import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import type { ThreadDelta } from '../../src/thread/entries';
import { ThreadModel } from '../../src/thread/threadModel';

function feed(model: ThreadModel, updates: acp.SessionUpdate[]): ThreadDelta[] {
  const deltas: ThreadDelta[] = [];
  const subscription = model.onDelta((delta) => deltas.push(delta));
  for (const update of updates) model.applyUpdate(update);
  subscription.dispose();
  return deltas;
}

const text = (sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk', value: string, messageId?: string): acp.SessionUpdate =>
  ({ sessionUpdate, content: { type: 'text', text: value }, ...(messageId ? { messageId } : {}) });

describe('ThreadModel', () => {
  test('message chunks stream into one entry as appends, thoughts into their own', () => {
    const model = new ThreadModel();
    model.addUserMessage('hi');
    const deltas = feed(model, [
      text('agent_thought_chunk', 'Let me '), text('agent_thought_chunk', 'think.'),
      text('agent_message_chunk', 'Hello'), text('agent_message_chunk', ', world'),
    ]);
    assert.deepEqual(model.snapshot().map((entry) => entry.kind), ['user', 'thought', 'agentMessage']);
    assert.equal(model.lastAgentText(), 'Hello, world');
    assert.deepEqual(deltas.map((delta) => delta.type), ['entryAdded', 'textAppended', 'entryAdded', 'textAppended']);
  });

  test('a new messageId starts a new message; a tool call in between splits messages', () => {
    const model = new ThreadModel();
    feed(model, [
      text('agent_message_chunk', 'one', 'm1'), text('agent_message_chunk', 'two', 'm2'),
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'pending' },
      text('agent_message_chunk', 'three'),
    ]);
    const messages = model.snapshot().filter((entry) => entry.kind === 'agentMessage').map((entry) => entry.kind === 'agentMessage' && entry.text);
    assert.deepEqual(messages, ['one', 'two', 'three']);
  });

  test('Claude-style edit: tool_call, diff update, completion replace content wholesale and keep the title', () => {
    const model = new ThreadModel();
    feed(model, [
      { sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'Preparing file...', kind: 'edit', status: 'pending', rawInput: {} },
      { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', title: 'Write /w/a.txt', locations: [{ path: '/w/a.txt' }],
        content: [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'hello\n' }], rawInput: { file_path: '/w/a.txt', content: 'hello\n' } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', status: 'completed', _meta: { claudeCode: { toolResponse: { type: 'create' } } } },
    ]);
    const tool = model.toolCall('toolu_1');
    assert.equal(tool?.title, 'Write /w/a.txt');
    assert.equal(tool?.status, 'completed');
    assert.deepEqual(tool?.content, [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'hello\n' }]);
    assert.deepEqual(tool?.locations, [{ path: '/w/a.txt', line: null }]);
    assert.match(tool?.rawInput ?? '', /"file_path": "\/w\/a.txt"/);
    assert.equal(model.snapshot().length, 1, 'updates never add a second card');
  });

  test('an update for a never-announced id creates its card (Gemini does this)', () => {
    const model = new ThreadModel();
    feed(model, [{ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress', title: 'WriteFile a.txt' }]);
    assert.equal(model.toolCall('ghost')?.status, 'in_progress');
    model.setPermission({ toolCallId: 'other', title: 'Shell rm -rf build', kind: 'execute' }, 'p1', [{ optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' }]);
    assert.equal(model.toolCall('other')?.title, 'Shell rm -rf build');
    assert.equal(model.toolCall('other')?.permission?.requestId, 'p1');
    model.clearPermission('p1');
    assert.equal(model.toolCall('other')?.permission, null);
  });

  test('plan updates replace the plan of the current turn; a new turn gets a new plan', () => {
    const model = new ThreadModel();
    model.addUserMessage('go');
    const step = (status: acp.PlanEntryStatus): acp.SessionUpdate => ({ sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status }] });
    feed(model, [step('pending'), text('agent_message_chunk', 'working'), step('completed')]);
    assert.equal(model.snapshot().filter((entry) => entry.kind === 'plan').length, 1);
    model.addUserMessage('again');
    feed(model, [step('pending')]);
    const plans = model.snapshot().filter((entry) => entry.kind === 'plan');
    assert.equal(plans.length, 2);
    assert.equal(plans[0]?.kind === 'plan' && plans[0].items[0]?.status, 'completed');
  });

  test('cancelling ends running tool calls as cancelled and drops their permission prompts', () => {
    const model = new ThreadModel();
    feed(model, [
      { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'done', status: 'completed' },
      { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'running', status: 'in_progress' },
    ]);
    model.setPermission({ toolCallId: 'c', title: 'asks' }, 'p1', []);
    model.endTurn('cancelled');
    assert.equal(model.toolCall('a')?.status, 'completed');
    assert.equal(model.toolCall('b')?.status, 'cancelled');
    assert.equal(model.toolCall('c')?.status, 'cancelled');
    assert.equal(model.toolCall('c')?.permission, null);
    const last = model.snapshot().at(-1);
    assert.equal(last?.kind === 'turnEnded' && last.stopReason, 'cancelled');
  });

  test('a stopped or failed turn leaves its plan stopped; a finished plan or an ended turn stays as it was', () => {
    const model = new ThreadModel();
    const plan = (...statuses: acp.PlanEntryStatus[]): acp.SessionUpdate => ({ sessionUpdate: 'plan', entries: statuses.map((status, index) => ({ content: `step ${index}`, priority: 'high', status })) });
    const plans = () => model.snapshot().flatMap((entry) => (entry.kind === 'plan' ? [entry.stopped === true] : []));
    for (const [stopReason, statuses] of [['end_turn', ['completed', 'in_progress']], ['cancelled', ['completed', 'completed']], ['cancelled', ['completed', 'in_progress']], ['error', ['pending']]] as const) {
      model.addUserMessage('go');
      feed(model, [plan(...statuses)]);
      model.endTurn(stopReason);
    }
    assert.deepEqual(plans(), [false, false, true, true]);
  });

  test('a restored turn with no end (the window reloaded) marks its message interrupted and stops its plan', () => {
    const model = new ThreadModel();
    model.restore([
      { kind: 'user', id: 'e1', text: 'first' },
      { kind: 'plan', id: 'e2', items: [{ content: 'a', priority: 'high', status: 'in_progress' }] },
      { kind: 'turnEnded', id: 'e3', stopReason: 'cancelled', detail: null },
      { kind: 'user', id: 'e4', text: 'lost to the reload' },
      { kind: 'plan', id: 'e5', items: [{ content: 'b', priority: 'high', status: 'in_progress' }] },
      { kind: 'agentMessage', id: 'e6', text: 'half an ans' },
    ]);
    const marks = model.snapshot().map((entry) => (entry.kind === 'user' ? `${entry.id}:${entry.interrupted === true}` : entry.kind === 'plan' ? `${entry.id}:${entry.stopped === true}` : entry.id));
    assert.deepEqual(marks, ['e1:false', 'e2:true', 'e3', 'e4:true', 'e5:true', 'e6']);
    assert.equal(model.takeInterrupted('e1'), null);
    assert.equal(model.takeInterrupted('e4'), 'lost to the reload');
    assert.equal(model.takeInterrupted('e4'), null, 'Retry sends it once');
  });

  test('session facts: usage, title, mode, commands, config options; unknown variants ignored', () => {
    const model = new ThreadModel();
    const deltas = feed(model, [
      { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } },
      { sessionUpdate: 'session_info_update', title: 'Fix the build' },
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review changes' }] },
      { sessionUpdate: 'a_future_variant' } as unknown as acp.SessionUpdate,
    ]);
    assert.deepEqual(model.facts.usage, { used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } });
    assert.equal(model.facts.title, 'Fix the build');
    assert.equal(model.facts.currentModeId, 'plan');
    assert.equal(model.facts.availableCommands[0]?.name, 'review');
    assert.equal(deltas.length, 0, 'facts are not thread entries');
  });

  test('every change of a fact is announced once, by name; an unchanged value is not', () => {
    const model = new ThreadModel();
    const changed: string[] = [];
    model.onFactChanged((name) => changed.push(name));
    feed(model, [
      { sessionUpdate: 'usage_update', used: 1, size: 10 },
      { sessionUpdate: 'session_info_update', title: 'A' },
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'available_commands_update', availableCommands: [] },
      { sessionUpdate: 'config_option_update', configOptions: [] },
    ]);
    model.setFact('title', 'B');
    model.setFact('title', 'B');
    assert.deepEqual(changed, ['usage', 'title', 'currentModeId', 'availableCommands', 'configOptions', 'title']);
    assert.equal(model.facts.title, 'B');
  });

  test('non-text content is named, not dropped; notices carry severity', () => {
    const model = new ThreadModel();
    feed(model, [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' } },
      { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'retrying in 5s' } as acp.SessionUpdate,
    ]);
    assert.equal(model.lastAgentText(), '[a.ts](file:///w/a.ts)');
    const notice = model.snapshot().at(-1);
    assert.ok(notice?.kind === 'notice' && notice.severity === 'warning' && notice.text === 'Rate limited: retrying in 5s');
  });

  test('snapshots are copies: changing one never changes the model', () => {
    const model = new ThreadModel();
    feed(model, [text('agent_message_chunk', 'abc')]);
    const snapshot = model.snapshot();
    if (snapshot[0]?.kind === 'agentMessage') snapshot[0].text = 'changed';
    assert.equal(model.lastAgentText(), 'abc');
  });
});
