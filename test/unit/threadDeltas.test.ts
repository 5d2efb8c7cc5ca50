import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyThreadDeltas } from '../../src/contract/threadDeltas';
import type { ThreadEntry } from '../../src/thread/entries';

const user = (id: string, text: string): ThreadEntry => ({ kind: 'user', id, text });
const answer = (id: string, text: string): ThreadEntry => ({ kind: 'agentMessage', id, text });
const tool = (id: string, title: string): ThreadEntry => ({
  kind: 'toolCall', id, tool: { toolCallId: id, title, toolKind: 'read', status: 'pending', content: [], locations: [], rawInput: null, rawOutput: null, permission: null },
});

describe('applying thread deltas', () => {
  test('adds, replaces and appends in order', () => {
    const entries = applyThreadDeltas([user('u', 'hi')], [
      { type: 'entryAdded', entry: answer('a', 'Hel') },
      { type: 'textAppended', entryId: 'a', text: 'lo' },
      { type: 'entryAdded', entry: tool('t', 'Read a') },
      { type: 'entryUpdated', entry: tool('t', 'Read a.ts') },
      { type: 'textAppended', entryId: 'a', text: '!' },
    ]);
    assert.deepEqual(entries, [user('u', 'hi'), answer('a', 'Hello!'), tool('t', 'Read a.ts')]);
  });

  test('leaves the list it was given and its entries as they were; changed entries are new objects', () => {
    const first = answer('a', 'one');
    const untouched = user('u', 'same');
    const before = [untouched, first];
    const after = applyThreadDeltas(before, [{ type: 'textAppended', entryId: 'a', text: ' two' }]);
    assert.deepEqual(before, [user('u', 'same'), answer('a', 'one')]);
    assert.equal(after[0], untouched);
    assert.notEqual(after[1], first);
    assert.deepEqual(after[1], answer('a', 'one two'));
  });

  test('an update of an unknown entry adds it; text for an unknown entry or one without text is dropped', () => {
    const entries = applyThreadDeltas([tool('t', 'Read')], [
      { type: 'entryUpdated', entry: answer('late', 'arrived') },
      { type: 'textAppended', entryId: 'missing', text: 'lost' },
      { type: 'textAppended', entryId: 't', text: 'not text' },
    ]);
    assert.deepEqual(entries, [tool('t', 'Read'), answer('late', 'arrived')]);
  });

  test('a cleared thread starts over within the same batch', () => {
    const entries = applyThreadDeltas([user('u', 'old')], [{ type: 'threadCleared' }, { type: 'entryAdded', entry: user('n', 'new') }]);
    assert.deepEqual(entries, [user('n', 'new')]);
  });
});
