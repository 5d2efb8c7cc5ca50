import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { AgentStarter } from '../../src/acp/agentChannel';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { TranscriptsState, TranscriptStorage } from '../../src/panel/transcripts';
import { RememberedWorkspaceUse, type WorkspaceMemory } from '../../src/panel/workspaceUse';
import { startScriptedAgentInMemory } from '../support/inMemoryAgent';
import { scriptedDefinition, scriptedEnvironment, scriptedPresenter, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

/** VS Code's workspaceState, as a map. */
class MemoryState implements WorkspaceMemory {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

interface PanelOptions {
  trusted?: boolean;
  agents?: AgentDefinition[];
  transcripts?: TranscriptStorage;
}

/** A presenter whose workspace memory is `memory`, counting the agents it starts. */
function panelIn(t: TestScope, memory: MemoryState, { trusted = true, ...options }: PanelOptions = {}) {
  let started = 0;
  const counting: AgentStarter = (launch) => {
    started++;
    return startScriptedAgentInMemory(launch);
  };
  const environment = { ...scriptedEnvironment(t, { trusted }), startAgent: counting };
  const panel = scriptedPresenter(t, { ...options, environment, actions: { workspaceUse: new RememberedWorkspaceUse(memory) } });
  return { ...panel, started: () => started };
}

/** Long enough for a start kicked off by `ready` to reach the agent starter. */
const settle = () => delay(150);

const usedMemory = () => {
  const memory = new MemoryState();
  new RememberedWorkspaceUse(memory).markUsed();
  return memory;
};

describe('agents start by themselves only where the user has used Tandem', () => {
  test('a workspace never used here: ready shows the idle panel and starts nothing; the first send starts the agent', async (t) => {
    const memory = new MemoryState();
    const { presenter, posted, environment, started, sentToAgent } = panelIn(t, memory);

    await presenter.handle({ type: 'ready' });
    await settle();
    const snapshot = posted.find((message) => message.type === 'snapshot');
    assert.ok(snapshot?.type === 'snapshot');
    assert.equal(snapshot.state.connection.phase, 'idle');
    assert.equal(presenter.currentSession.connectionView.phase, 'idle');
    assert.equal(started(), 0, 'no agent was started');
    assert.equal(presenter.currentSession.agentPid, undefined);
    assert.deepEqual(environment.frames.frames(), [], 'nothing was said to any agent');
    assert.equal(memory.values.size, 0, 'looking is not using');

    await presenter.handle({ type: 'sendPrompt', text: 'echo first message' });
    await waitFor(() => presenter.currentSession.thread.snapshot().some((entry) => entry.kind === 'agentMessage' && entry.text === 'You said: first message'), 'the answer');
    assert.equal(started(), 1);
    assert.ok(environment.frames.frames().length > 0);
    assert.deepEqual(sentToAgent(), ['echo first message']);
    assert.equal(presenter.currentSession.connectionView.phase, 'ready');
    assert.equal(memory.values.size, 1, 'the send was remembered for this workspace');
  });

  test('a workspace used before starts its agent on ready, as it always did', async (t) => {
    const { presenter, started, environment } = panelIn(t, usedMemory());
    await presenter.handle({ type: 'ready' });
    await waitFor(() => presenter.currentSession.connectionView.phase === 'ready', 'agent ready');
    assert.equal(started(), 1);
    assert.ok(environment.frames.frames().length > 0);
  });

  test('the first use is remembered: the next window on the same workspace starts on ready', async (t) => {
    const memory = new MemoryState();
    const first = panelIn(t, memory);
    await first.presenter.handle({ type: 'ready' });
    await first.presenter.handle({ type: 'sendPrompt', text: 'echo hello' });
    first.dispose();

    const second = panelIn(t, memory);
    await second.presenter.handle({ type: 'ready' });
    await waitFor(() => second.presenter.currentSession.connectionView.phase === 'ready', 'agent ready in the next window');
    assert.equal(second.started(), 1);
  });

  test('picking an agent, Restart and New Session each count as use and start an agent', async (t) => {
    const other = { ...scriptedDefinition(), id: 'other', label: 'Other agent' };
    const actions: [string, (panel: ReturnType<typeof panelIn>) => Promise<void>][] = [
      ['selectAgent', (panel) => panel.presenter.handle({ type: 'selectAgent', agentId: 'other' })],
      ['restartAgent', (panel) => panel.presenter.handle({ type: 'runAction', action: 'restartAgent' })],
      ['newSession', (panel) => panel.presenter.handle({ type: 'runAction', action: 'newSession' })],
    ];
    for (const [name, act] of actions) {
      const memory = new MemoryState();
      const panel = panelIn(t, memory, { agents: [scriptedDefinition(), other] });
      await panel.presenter.handle({ type: 'ready' });
      await settle();
      assert.equal(panel.started(), 0, `${name}: nothing before the user acts`);
      await act(panel);
      await waitFor(() => panel.presenter.currentSession.connectionView.phase === 'ready', `${name}: agent ready`);
      assert.equal(panel.started(), 1, name);
      assert.equal(memory.values.size, 1, `${name} was remembered`);
      panel.dispose();
    }
  });

  test('signing in counts as use', async (t) => {
    const memory = new MemoryState();
    const { presenter } = panelIn(t, memory);
    await presenter.handle({ type: 'ready' });
    await presenter.handle({ type: 'signIn', methodId: 'none' });
    assert.equal(memory.values.size, 1);
  });

  test('trust granted to a workspace never used here leaves an idle conversation; a used one starts', async (t) => {
    const fresh = panelIn(t, new MemoryState(), { trusted: false });
    await fresh.presenter.handle({ type: 'ready' });
    assert.equal(fresh.presenter.currentSession.connectionView.phase, 'restricted');
    fresh.environment.trusted = true;
    await fresh.presenter.trustGranted();
    await settle();
    assert.equal(fresh.presenter.currentSession.connectionView.phase, 'idle', 'ready to send, not started');
    assert.equal(fresh.presenter.state().tabs.tabs.length, 1, 'the restricted conversation gave way to the idle one');
    assert.equal(fresh.started(), 0);

    const used = panelIn(t, usedMemory(), { trusted: false });
    await used.presenter.handle({ type: 'ready' });
    used.environment.trusted = true;
    await used.presenter.trustGranted();
    await waitFor(() => used.presenter.currentSession.connectionView.phase === 'ready', 'agent ready after trust');
    assert.equal(used.started(), 1);
  });

  test('saved conversations of this workspace count as use', async (t) => {
    const record = { tabId: 'tab-saved', agentId: 'scripted', sessionId: null, title: 'Earlier', updatedAt: '2024-01-01T00:00:00.000Z', entries: [{ kind: 'user' as const, id: 'u1', text: 'hello' }] };
    let state: TranscriptsState | undefined = { open: [], activeTabId: null, closed: [record] };
    const memory = new MemoryState();
    const { presenter, started } = panelIn(t, memory, { transcripts: { read: () => state, write: (next) => (state = next) } });
    await presenter.handle({ type: 'ready' });
    await waitFor(() => presenter.currentSession.connectionView.phase === 'ready', 'agent ready');
    assert.equal(started(), 1);
    assert.equal(memory.values.size, 1);
  });
});
