// "/" before the agent has started: the commands it listed when it last ran here, or a word on
// why there are none yet. The agent's own list replaces them once its session is up.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConversationView } from '../../src/contract/conversationView';
import type { HostToWebview } from '../../src/contract/messages';
import { RememberedCommands, type RememberedCommandsRecord } from '../../src/panel/rememberedCommands';
import { RememberedWorkspaceUse, type WorkspaceMemory } from '../../src/panel/workspaceUse';
import type { RecordStore } from '../../src/permissions/recordStore';
import { scriptedPresenter, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

class MemoryRecords implements RecordStore<RememberedCommandsRecord> {
  records: RememberedCommandsRecord[] = [];
  saves = 0;
  load(): RememberedCommandsRecord[] {
    return structuredClone(this.records);
  }
  save(records: RememberedCommandsRecord[]): void {
    this.saves++;
    this.records = structuredClone(records);
  }
}

/** A workspace never used here: nothing starts until the user sends. */
class NeverUsed implements WorkspaceMemory {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

function window(t: TestScope, store: MemoryRecords) {
  return scriptedPresenter(t, { actions: { workspaceUse: new RememberedWorkspaceUse(new NeverUsed()), conversation: { rememberedCommands: store } } });
}

const lastConversation = (posted: HostToWebview[]): ConversationView | undefined =>
  posted.flatMap((message) => (message.type === 'conversationChanged' ? [message.conversation] : [])).at(-1);

describe('slash commands before the agent has started', () => {
  test('none known says so; once listed they are kept, and the next window offers them before its agent starts', async (t) => {
    const store = new MemoryRecords();
    const first = window(t, store);
    await first.presenter.handle({ type: 'ready' });
    await waitFor(() => lastConversation(first.posted)?.commandsFrom === 'notStarted', 'the panel told no commands are known yet');
    assert.deepEqual(lastConversation(first.posted)?.commands, []);

    await first.presenter.handle({ type: 'sendPrompt', text: 'commands tour edit' });
    await waitFor(() => lastConversation(first.posted)?.commands.length === 2, 'the agent\'s own list');
    const listed = lastConversation(first.posted);
    assert.deepEqual(listed?.commands.map((command) => command.name), ['tour', 'edit']);
    assert.equal(listed?.commandsFrom, undefined, 'the running agent\'s list is its own');
    assert.deepEqual(store.records.map((record) => [record.agentId, record.commands.map((command) => command.name)]), [['scripted', ['tour', 'edit']]]);
    first.dispose();

    const second = window(t, store);
    await second.presenter.handle({ type: 'ready' });
    await waitFor(() => lastConversation(second.posted)?.commandsFrom === 'lastRun', 'the last run\'s commands');
    assert.deepEqual(lastConversation(second.posted)?.commands, listed?.commands);
    assert.equal(second.presenter.currentSession.connectionView.phase, 'idle', 'offering them starts nothing');
  });

  test('the same list again writes nothing; each agent keeps its own, bounded', () => {
    const store = new MemoryRecords();
    const remembered = new RememberedCommands(store);
    const commands = [{ name: 'tour', description: 'x'.repeat(1_000), inputHint: null }];
    remembered.remember('demo', commands);
    remembered.remember('demo', commands);
    assert.equal(store.saves, 1);
    assert.equal(remembered.of('demo')[0]?.description.length, 300);
    assert.deepEqual(remembered.of('other'), []);
    for (let agent = 0; agent < 60; agent++) remembered.remember(`agent-${agent}`, [{ name: 'go', description: '', inputHint: 'where' }]);
    assert.equal(store.records.length, 50, 'the oldest agents are let go');
    assert.deepEqual(remembered.of('demo'), []);
    assert.deepEqual(remembered.of('agent-59'), [{ name: 'go', description: '', inputHint: 'where' }]);
  });
});
