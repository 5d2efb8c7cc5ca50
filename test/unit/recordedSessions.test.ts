import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { ThreadModel } from '../../src/thread/threadModel';
import { repoRoot } from '../support/scriptedAgentSpec';

function recorded(name: string): acp.SessionUpdate[] {
  return readFileSync(join(repoRoot, 'test', 'fixtures', name), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as acp.SessionUpdate);
}

describe('thread model fed with a recorded real Claude Code turn (Write)', () => {
  const model = new ThreadModel();
  model.addUserMessage('Create notes.md');
  for (const update of recorded('claude-write.updates.jsonl')) model.applyUpdate(update);
  model.endTurn('end_turn');

  test('entries come out in the order the user saw them', () => {
    assert.deepEqual(model.snapshot().map((entry) => entry.kind), ['user', 'thought', 'agentMessage', 'toolCall', 'agentMessage', 'turnEnded']);
    const texts = model.snapshot().filter((entry) => entry.kind === 'thought' || entry.kind === 'agentMessage').map((entry) => ('text' in entry ? entry.text : ''));
    assert.deepEqual(texts, ['The user wants a notes file.', 'I will create the notes file.', 'Created `notes.md`.']);
  });

  test('the Write card ends titled, completed, with the diff of a new file and its location', () => {
    const tool = model.snapshot().find((entry) => entry.kind === 'toolCall');
    assert.ok(tool?.kind === 'toolCall');
    assert.equal(tool.tool.title, 'Write notes.md');
    assert.equal(tool.tool.toolKind, 'edit');
    assert.equal(tool.tool.status, 'completed');
    assert.deepEqual(tool.tool.content, [{ type: 'diff', path: '/workspace/notes.md', oldText: null, newText: '# Notes\n\nFirst line.\n' }]);
    assert.deepEqual(tool.tool.locations.map((location) => location.path), ['/workspace/notes.md']);
    assert.match(tool.tool.rawOutput ?? '', /File created successfully/);
  });

  test('usage and cost, and the agent\'s slash commands, are session facts', () => {
    assert.equal(model.facts.usage?.used, 2780);
    assert.equal(model.facts.usage?.size, 1_000_000);
    assert.deepEqual(model.facts.usage?.cost, { amount: 0.023564, currency: 'USD' });
    assert.ok(model.facts.availableCommands.length > 5);
  });
});
