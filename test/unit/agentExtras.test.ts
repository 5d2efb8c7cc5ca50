import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compactionText, rateLimitText } from '../../src/contract/agentExtrasView';
import { subagentSummary, subagentSummaryText } from '../../src/contract/subagentSummary';
import { formatTokens } from '../../src/contract/usageText';
import type { PromptQueueView } from '../../src/conversation/queuedPrompts';
import type { ThreadEntry } from '../../src/thread/entries';
import type { ConversationView } from '../../src/contract/conversationView';
import { scriptedEnvironment, scriptedPresenter, scriptedSession } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

function lastQueue(posted: readonly { type: string }[]): PromptQueueView | undefined {
  const message = posted.filter((candidate) => candidate.type === 'queueChanged').at(-1) as { queue: PromptQueueView } | undefined;
  return message?.queue;
}

function lastConversation(posted: readonly { type: string }[]): ConversationView | undefined {
  const message = posted.filter((candidate) => candidate.type === 'conversationChanged').at(-1) as { conversation: ConversationView } | undefined;
  return message?.conversation;
}

function frameText(frames: readonly { direction: string; text: string }[], method: string): Record<string, unknown> {
  const frame = frames.find((candidate) => candidate.direction === 'out' && candidate.text.includes(`"method":"${method}"`));
  assert.ok(frame, `a ${method} frame went out`);
  return JSON.parse(frame.text) as Record<string, unknown>;
}

describe('steering a message into the running turn', () => {
  test('a queued message steered in reaches the running turn, which answers it, and the thread says it was taken in', async (t) => {
    const panel = scriptedPresenter(t, { env: { SCRIPTED_AGENT_STEERING: '1' } });
    await panel.ready();
    void panel.presenter.handle({ type: 'sendPrompt', text: 'steerable' });
    await waitFor(() => panel.session().thread.lastAgentText().includes('working'), 'the turn to stream');
    await panel.presenter.handle({ type: 'sendPrompt', text: 'also check the tests' });
    const queued = await waitFor(() => {
      const queue = lastQueue(panel.posted);
      return queue?.items.length === 1 && queue.steerable ? queue : undefined;
    }, 'the message queued, offering Steer');
    await panel.presenter.handle({ type: 'queueAction', action: 'steer', id: queued.items[0]?.id ?? '' });
    await waitFor(() => !panel.session().turnView.running, 'the turn to end');
    const entries = panel.session().thread.snapshot();
    const steered = entries.find((entry) => entry.kind === 'user' && entry.text === 'also check the tests');
    assert.equal(steered?.kind === 'user' && steered.steered, 'injected');
    assert.match(panel.session().thread.lastAgentText(), /Took in: also check the tests$/);
    // One turn: the steered message did not start one of its own.
    assert.equal(entries.filter((entry) => entry.kind === 'turnEnded').length, 1);
    assert.equal(lastQueue(panel.posted)?.items.length, 0);
    const wire = frameText(panel.environment.frames.frames(), '_session/steering') as { params: { prompt: { text: string }[]; _meta: unknown } };
    assert.equal(wire.params.prompt[0]?.text, 'also check the tests');
    assert.deepEqual(wire.params._meta, { steering: { idleBehavior: 'promptRequired' } });
  });

  test('an agent that starts a new turn for it is shown as such', async (t) => {
    const panel = scriptedPresenter(t, { env: { SCRIPTED_AGENT_STEERING: 'new-turn' } });
    await panel.ready();
    void panel.presenter.handle({ type: 'sendPrompt', text: 'steerable' });
    await waitFor(() => panel.session().thread.lastAgentText().includes('working'), 'the turn to stream');
    await panel.presenter.handle({ type: 'sendPrompt', text: 'a follow-up' });
    const queued = await waitFor(() => lastQueue(panel.posted)?.steerable ? lastQueue(panel.posted) : undefined, 'Steer offered');
    await panel.presenter.handle({ type: 'queueAction', action: 'steer', id: queued.items[0]?.id ?? '' });
    const steered = await waitFor(() => panel.session().thread.snapshot().find((entry) => entry.kind === 'user' && entry.steered), 'the steered message');
    assert.equal(steered.kind === 'user' && steered.steered, 'startedNewTurn');
  });

  test('without steering advertised the queue never offers it, and a steer action leaves the message queued', async (t) => {
    const panel = scriptedPresenter(t);
    await panel.ready();
    void panel.presenter.handle({ type: 'sendPrompt', text: 'slow' });
    await waitFor(() => panel.session().thread.lastAgentText().length > 10, 'the turn to stream');
    await panel.presenter.handle({ type: 'sendPrompt', text: 'later please' });
    const queue = await waitFor(() => (lastQueue(panel.posted)?.items.length === 1 ? lastQueue(panel.posted) : undefined), 'the message queued');
    assert.equal(queue.steerable, false);
    assert.equal(panel.session().canSteer, false);
    await panel.presenter.handle({ type: 'queueAction', action: 'steer', id: queue.items[0]?.id ?? '' });
    assert.deepEqual(lastQueue(panel.posted)?.items.map((item) => item.text), ['later please']);
    assert.ok(!panel.environment.frames.frames().some((frame) => frame.text.includes('_session/steering')), 'nothing was steered');
    await panel.session().cancel();
  });

  test('a message the agent hands back (no turn of its own to take it) stays first in the queue and goes out as its own prompt', async (t) => {
    // `slow` is a turn the scripted agent cannot steer: it answers promptRequired, as for an idle session.
    const panel = scriptedPresenter(t, { env: { SCRIPTED_AGENT_STEERING: '1' } });
    await panel.ready();
    void panel.presenter.handle({ type: 'sendPrompt', text: 'slow' });
    await waitFor(() => panel.session().thread.lastAgentText().length > 10, 'the turn to stream');
    void panel.presenter.handle({ type: 'sendPrompt', text: 'echo first' });
    void panel.presenter.handle({ type: 'sendPrompt', text: 'echo second' });
    const queue = await waitFor(() => (lastQueue(panel.posted)?.items.length === 2 && lastQueue(panel.posted)?.steerable ? lastQueue(panel.posted) : undefined), 'two queued');
    await panel.presenter.handle({ type: 'queueAction', action: 'steer', id: queue.items[1]?.id ?? '' });
    assert.deepEqual(lastQueue(panel.posted)?.items.map((item) => item.text), ['echo second', 'echo first']);
    assert.ok(panel.environment.frames.frames().some((frame) => frame.direction === 'in' && frame.text.includes('"promptRequired"')), 'the agent handed it back');
    await panel.session().cancel();
    await waitFor(() => panel.sentToAgent().length === 3 && !panel.session().turnView.running, 'the queue sent');
    assert.deepEqual(panel.sentToAgent(), ['slow', 'echo second', 'echo first']);
    assert.equal(panel.session().thread.snapshot().some((entry) => entry.kind === 'user' && entry.steered), false);
  });
});

describe('compaction, notices and rate limits', () => {
  test('Tandem advertises notices and compaction, and a compaction is one thread entry with its tokens before and after', async (t) => {
    const environment = scriptedEnvironment(t);
    const session = scriptedSession(t, { environment });
    await session.prompt('compaction');
    const initialize = frameText(environment.frames.frames(), 'initialize') as { params: { clientCapabilities: { session: Record<string, unknown> } } };
    assert.deepEqual(initialize.params.clientCapabilities.session.notices, {});
    assert.deepEqual(initialize.params.clientCapabilities.session.compaction, {});
    const compactions = session.thread.snapshot().filter((entry): entry is Extract<ThreadEntry, { kind: 'compaction' }> => entry.kind === 'compaction');
    assert.equal(compactions.length, 1);
    const compaction = compactions[0]?.compaction;
    assert.ok(compaction);
    assert.deepEqual({ ...compaction }, { compactionId: 'compact-1', status: 'completed', tokensBefore: 150_000, tokensAfter: 12_000, summary: 'We fixed the parser; tests pass.', error: null });
    assert.equal(compactionText(compaction, formatTokens), 'Context compacted: 150K tokens -> 12K');
  });

  test('notices keep their severity', async (t) => {
    const session = scriptedSession(t);
    await session.prompt('notices');
    const notices = session.thread.snapshot().flatMap((entry) => (entry.kind === 'notice' ? [[entry.severity, entry.text]] : []));
    assert.deepEqual(notices, [['info', 'Indexing done'], ['warning', 'Slow model: Responses may take longer'], ['error', 'Hook failed']]);
  });

  test('Claude rate limits become one limit per window with its reset time, and none is shown where the agent sends none', async (t) => {
    const resetsAt = Math.floor(Date.UTC(2026, 11, 1, 15, 30) / 1000);
    const panel = scriptedPresenter(t);
    await panel.ready();
    await panel.session().prompt('echo hi');
    await waitFor(() => lastConversation(panel.posted), 'the conversation view');
    assert.deepEqual(lastConversation(panel.posted)?.rateLimits, []);
    await panel.session().prompt(`rate-limits ${resetsAt}`);
    const limits = await waitFor(() => (lastConversation(panel.posted)?.rateLimits?.length === 2 ? lastConversation(panel.posted)?.rateLimits : undefined), 'two limits shown');
    assert.deepEqual(limits.map((limit) => [limit.window, limit.status, Math.round(limit.percent ?? -1), limit.resetsAt]), [
      ['five_hour', 'allowed_warning', 82, resetsAt * 1000],
      ['seven_day', 'allowed', 30, (resetsAt + 86_400 * 3) * 1000],
    ]);
    const [fiveHour, weekly] = limits;
    assert.ok(fiveHour && weekly);
    const sameDay = resetsAt * 1000 - 60_000;
    assert.match(rateLimitText(fiveHour, sameDay), /^5-hour limit: 82% used, resets \d\d:\d\d( [AP]M)?$/);
    assert.match(rateLimitText(weekly, sameDay), /^Weekly limit: 30% used, resets Fri, Dec 4 /);
  });
});

describe('subagents and unknown tool calls', () => {
  test("a subagent's tool calls and messages carry their Agent call, which counts the files they changed", async (t) => {
    const session = scriptedSession(t);
    await session.prompt('subagent');
    const entries = session.thread.snapshot();
    assert.equal(session.thread.toolCall('sub-read')?.parentToolCallId, 'task-1');
    // The stamp came only on the edit's first report: later updates keep it.
    assert.equal(session.thread.toolCall('sub-edit')?.parentToolCallId, 'task-1');
    assert.equal(session.thread.toolCall('task-1')?.parentToolCallId, undefined);
    const subMessage = entries.find((entry) => entry.kind === 'agentMessage' && entry.text === 'The subagent found the bug.');
    assert.equal(subMessage?.kind === 'agentMessage' && subMessage.parentToolCallId, 'task-1');
    // The main conversation's own answer is not part of it.
    assert.equal(session.thread.lastAgentText(), 'The subagent is done.');
    const summary = subagentSummary(entries, 'task-1');
    assert.deepEqual(summary, { toolCalls: 2, messages: 1, filesChanged: 1 });
    assert.equal(subagentSummaryText(summary), 'Subagent: 2 tool calls, 1 message, 1 file changed');
  });

  test('an update for a tool call never announced becomes its card, and the turn carries on', async (t) => {
    const session = scriptedSession(t);
    await session.prompt('unknown-tool-update');
    const tool = session.thread.toolCall('never-announced');
    assert.equal(tool?.title, 'Ran a check');
    assert.equal(tool?.status, 'completed');
    assert.equal(session.thread.lastAgentText(), 'After the unknown call.');
  });
});
