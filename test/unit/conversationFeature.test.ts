import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { HostToWebview } from '../../src/contract/messages';
import type { ConversationView } from '../../src/contract/conversationView';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { ThreadModel, type ToolCallLocated } from '../../src/thread/threadModel';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { tempWorkspace } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';
import { folderScope } from '../../src/workspace/workspaceScope';

const workspace = tempWorkspace({ after }, 'tandem-conversation-view-');

/** A panel on the scripted agent, its posted messages, and where "follow the agent" went. */
async function readyPanel(t: { after(fn: () => unknown): void }) {
  const posted: HostToWebview[] = [];
  const revealed: [string, number | null][] = [];
  const presenter = new ChatPresenter(() => [scriptedAgentDefinition()], 'scripted',
    { workspace: () => folderScope(workspace), trusted: true, frames: new FrameStore(), logger: silentLogger },
    (message) => posted.push(message),
    { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined, conversation: { revealLocation: (path, line) => revealed.push([path, line]) } });
  t.after(() => presenter.dispose());
  await presenter.handle({ type: 'ready' });
  await waitFor(() => presenter.currentSession.connectionView.phase === 'ready', 'agent ready');
  const conversations = (): ConversationView[] => posted.flatMap((message) => (message.type === 'conversationChanged' ? [message.conversation] : []));
  return { presenter, revealed, conversations, posted };
}

describe('the conversation view follows the thread', () => {
  test('a usage_update posts a conversationChanged with the new usage; so does a usage fact set without any update', async (t) => {
    const { presenter, conversations } = await readyPanel(t);
    await presenter.sendPrompt('usage 1000 10000');
    const fromAgent = await waitFor(() => conversations().find((view) => view.usage?.kind === 'context' && view.usage.used === 1000), 'the agent\'s usage posted');
    assert.deepEqual(fromAgent.usage, { kind: 'context', used: 1000, size: 10000, percent: 10, level: 'normal', cost: null });

    presenter.currentSession.thread.setFact('usage', { used: 9000, size: 10000, cost: null });
    const fromFact = await waitFor(() => conversations().find((view) => view.usage?.kind === 'context' && view.usage.used === 9000), 'the fact posted');
    assert.deepEqual(fromFact.usage, { kind: 'context', used: 9000, size: 10000, percent: 90, level: 'warning', cost: null });
  });

  test('a turn is shown ended only after the usage it ended on: the coalesced view goes out before the turn\'s end', async (t) => {
    const { presenter, posted } = await readyPanel(t);
    await presenter.sendPrompt('usage 2000 10000');
    const ended = await waitFor(() => {
      const index = posted.findIndex((message) => message.type === 'turnChanged' && !message.turn.running);
      return index >= 0 ? index : undefined;
    }, 'the turn\'s end posted');
    const usageAt = posted.findIndex((message) => message.type === 'conversationChanged' && message.conversation.usage?.kind === 'context' && message.conversation.usage.used === 2000);
    assert.ok(usageAt >= 0 && usageAt < ended, `the usage (message ${usageAt}) goes out before the turn's end (message ${ended})`);
  });

  test('the agent\'s commands reach the view as a fact', async (t) => {
    const { presenter, conversations } = await readyPanel(t);
    const thread = presenter.currentSession.thread;
    const before = conversations().length;
    thread.setFact('availableCommands', [{ name: 'review', description: 'Review the changes', input: { hint: 'a path' } }]);
    const posted = await waitFor(() => conversations().length > before ? conversations().at(-1) : undefined, 'a view for the commands');
    assert.deepEqual(posted.commands, [{ name: 'review', description: 'Review the changes', inputHint: 'a path' }]);
  });

  test('following the agent reveals the last location a tool call names, once per place in a row', async (t) => {
    const { presenter, revealed } = await readyPanel(t);
    await presenter.sendPrompt('tool');
    assert.deepEqual(revealed, [], 'nothing is revealed unless the user follows the agent');
    await presenter.handle({ type: 'setFollowAgent', enabled: true });
    await presenter.sendPrompt('tool');
    assert.deepEqual(revealed, [['/workspace/README.md', 3]]);
    const thread = presenter.currentSession.thread;
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'read-1', locations: [{ path: '/workspace/README.md', line: 3 }] });
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'read-1', locations: [{ path: '/workspace/a.ts' }, { path: '/workspace/b.ts', line: 7 }] });
    assert.deepEqual(revealed, [['/workspace/README.md', 3], ['/workspace/b.ts', 7]]);
  });
});

describe('ThreadModel tool-call locations', () => {
  test('each tool call update that names locations is announced with all of them; one without locations is not', () => {
    const thread = new ThreadModel();
    const located: ToolCallLocated[] = [];
    thread.onToolCallLocated((event) => located.push(event));
    thread.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending', locations: [{ path: '/w/a.ts', line: 2 }] });
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 't1', locations: [] });
    thread.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit', locations: [{ path: '/w/a.ts' }, { path: '/w/b.ts' }] });
    assert.deepEqual(located, [
      { toolCallId: 't1', locations: [{ path: '/w/a.ts', line: 2 }] },
      { toolCallId: 't2', locations: [{ path: '/w/a.ts', line: null }, { path: '/w/b.ts', line: null }] },
    ]);
  });
});
