/**
 * Budgets through a real SessionController on the scripted agent: a reached limit stops the turn
 * once its running command finished (not in the middle of it), says which limit and which setting
 * in the thread, and the next message does not reach the agent until the limit is raised.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThreadEntry } from '../../src/thread/entries';
import { budgetSentence, budgetState, type BudgetLimits } from '../../src/usage/budget';
import { join } from 'node:path';
import { localDay, type UsageEntry } from '../../src/usage/usageEntry';
import { UsageLedger } from '../../src/usage/usageLedger';
import { silentLogger } from '../../src/util/logger';
import { scriptedEnvironment, scriptedSession, tempWorkspace } from '../support/sessionBuilders';

/** A turn another window finished earlier. */
const earlierTurn: UsageEntry = {
  v: 1, at: '', day: '', project: '/work/other', agent: 'claude', agentLabel: 'Claude Code', model: null, conversation: 'other',
  sessionId: 'other', stopReason: 'end_turn', inputTokens: null, outputTokens: null, totalTokens: null, cost: 0, currency: 'USD',
};

const NO_LIMITS: BudgetLimits = { conversation: null, day: null, month: null, currency: 'USD' };

/** Prompts the agent received, read from the wire. */
function promptsSent(frames: { direction: string; text: string }[]): number {
  return frames.filter((frame) => frame.direction === 'out' && frame.text.includes('"session/prompt"')).length;
}

function lastTurnEnd(entries: ThreadEntry[]): Extract<ThreadEntry, { kind: 'turnEnded' }> | undefined {
  return entries.filter((entry): entry is Extract<ThreadEntry, { kind: 'turnEnded' }> => entry.kind === 'turnEnded').at(-1);
}

describe('budgets', () => {
  test('a conversation limit reached while a command runs stops the turn after the command, once, and holds the next message until raised', async (t) => {
    let limits: BudgetLimits = { ...NO_LIMITS, conversation: 1 };
    const environment = scriptedEnvironment(t, { budget: { limits: () => limits, spentSince: async () => 0 } });
    const session = scriptedSession(t, { environment });
    await session.prompt('costly 1.20');
    const entries = session.thread.snapshot();
    const command = entries.find((entry) => entry.kind === 'toolCall');
    assert.equal(command?.kind === 'toolCall' && command.tool.status, 'completed', 'the command was not cut short');
    const notices = entries.filter((entry) => entry.kind === 'notice');
    assert.deepEqual(notices.map((entry) => entry.kind === 'notice' && entry.text), ["Stopped: this conversation's budget is reached ($1.20 of $1.00 spent). Raise tandem.budget.perConversation to go on."]);
    assert.ok(entries.indexOf(notices[0]!) > entries.indexOf(command!), 'the stop comes after the command');
    assert.deepEqual(notices[0]?.kind === 'notice' && notices[0].actions, ['budgetSettings'], 'the notice offers the budget settings');
    assert.equal(lastTurnEnd(entries)?.stopReason, 'cancelled');
    assert.equal(entries.some((entry) => entry.kind === 'agentMessage' && /Finished the costly work/.test(entry.text)), false, 'the long answer was stopped');

    const sent = promptsSent(environment.frames.frames());
    await session.prompt('echo go on');
    assert.equal(promptsSent(environment.frames.frames()), sent, 'the message did not reach the agent');
    assert.match(lastTurnEnd(session.thread.snapshot())?.detail ?? '', /^Stopped: this conversation's budget is reached/);

    limits = { ...limits, conversation: 5 };
    await session.prompt('echo go on');
    assert.equal(promptsSent(environment.frames.frames()), sent + 1);
    assert.equal(lastTurnEnd(session.thread.snapshot())?.stopReason, 'end_turn');
  });

  test('today\'s limit counts what the ledger holds for today (other windows included) and this turn\'s cost so far', async (t) => {
    const ledger = new UsageLedger(join(tempWorkspace(t), 'usage'), silentLogger);
    const today = localDay(new Date());
    ledger.record({ ...earlierTurn, at: new Date().toISOString(), day: today, cost: 1.5 });
    const environment = scriptedEnvironment(t, {
      usageLedger: ledger,
      budget: { limits: () => ({ ...NO_LIMITS, day: 2 }), spentSince: (day, currency) => ledger.spentSince(day, currency) },
    });
    const session = scriptedSession(t, { environment });
    await session.prompt('costly 0.40');
    assert.equal(lastTurnEnd(session.thread.snapshot())?.stopReason, 'end_turn', '$1.50 + $0.40 of $2.00');
    await session.prompt('costly 0.60');
    assert.equal(lastTurnEnd(session.thread.snapshot())?.stopReason, 'cancelled', '$1.50 + $0.40 + $0.20 so far of $2.00');
    assert.match(session.thread.snapshot().filter((entry) => entry.kind === 'notice').map((entry) => entry.kind === 'notice' ? entry.text : '').join('\n'), /today's budget is reached \(\$2\.10 of \$2\.00 spent\)\. Raise tandem\.budget\.perDay/);
  });

  test('near a limit the conversation shows a warning for the meter, and says when it changed', async (t) => {
    const environment = scriptedEnvironment(t, { budget: { limits: () => ({ ...NO_LIMITS, conversation: 1 }), spentSince: async () => 0 } });
    const session = scriptedSession(t, { environment });
    let changes = 0;
    session.costs.onChanged(() => changes++);
    assert.equal(session.costs.warning, null);
    await session.prompt('costly 0.85');
    assert.equal(lastTurnEnd(session.thread.snapshot())?.stopReason, 'end_turn');
    assert.deepEqual(session.costs.warning, { level: 'near', short: '$0.85 of $1.00 here', text: "Near this conversation's budget: $0.85 of $1.00 spent." });
    assert.ok(changes >= 1);
  });

  test('where spend stands: reached before near, the fullest limit first, other currencies not counted', () => {
    const limits: BudgetLimits = { conversation: 10, day: 5, month: 100, currency: 'USD' };
    assert.deepEqual(budgetState(limits, { conversation: 1, day: 1, month: 10 }), { kind: 'within' });
    assert.deepEqual(budgetState(limits, { conversation: 8.5, day: 4.5, month: 10 }), { kind: 'near', scope: 'day', spent: 4.5, limit: 5, currency: 'USD' });
    assert.deepEqual(budgetState(limits, { conversation: 9, day: 1, month: 100 }), { kind: 'reached', scope: 'month', spent: 100, limit: 100, currency: 'USD' });
    assert.equal(budgetSentence({ kind: 'near', scope: 'day', spent: 4.5, limit: 5, currency: 'EUR' }), "Near today's budget: 4.50 EUR of 5.00 EUR spent.");
  });
});
