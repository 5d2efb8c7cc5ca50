/**
 * Each turn a conversation finishes goes to the usage ledger with what it cost: the growth of the
 * session's cumulative cost over the turn, which must equal the differences of the `usage_update`
 * costs on the wire. A turn that never reached the agent is not a turn of usage.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { costOfTurn } from '../../src/usage/turnCost';
import type { UsageEntry } from '../../src/usage/usageEntry';
import { scriptedEnvironment, scriptedSession } from '../support/sessionBuilders';

/** The cumulative costs the agent reported on the wire, in order. */
function wireCosts(frames: { direction: string; text: string }[]): number[] {
  return frames.filter((frame) => frame.direction === 'in')
    .flatMap((frame) => {
      const message = JSON.parse(frame.text) as { params?: { update?: { sessionUpdate?: string; cost?: { amount: number } } } };
      const update = message.params?.update;
      return update?.sessionUpdate === 'usage_update' && update.cost ? [update.cost.amount] : [];
    });
}

describe('usage recorded per turn', () => {
  test('three turns of a conversation: each cost is the growth of the cumulative cost on the wire, with its agent, model and project', async (t) => {
    const recorded: UsageEntry[] = [];
    const environment = scriptedEnvironment(t, { usageLedger: { record: (entry) => recorded.push(entry) } });
    const session = scriptedSession(t, { environment, env: { SCRIPTED_AGENT_OPTIONS: 'config' } });
    await session.prompt('usage 1000 200000 0.10');
    await session.prompt('usage 4000 200000 0.35');
    await session.prompt('usage 4100 200000 0.35');
    const costs = wireCosts(environment.frames.frames());
    assert.deepEqual(costs, [0.1, 0.35, 0.35]);
    const byHand = costs.map((cost, index) => cost - (costs[index - 1] ?? 0));
    assert.deepEqual(recorded.map((entry) => entry.cost?.toFixed(6)), byHand.map((cost) => cost.toFixed(6)));
    assert.deepEqual(recorded.map((entry) => [entry.agent, entry.stopReason, entry.currency, entry.conversation === session.key]), Array(3).fill(['scripted', 'end_turn', 'USD', true]));
    assert.ok(recorded.every((entry) => entry.project !== null && entry.sessionId !== null));
    assert.deepEqual(recorded.map((entry) => entry.model), Array(3).fill('Scripted Large'), 'the model picker\'s name for its current value (a grouped option)');
  });

  test('an agent that reports no cost: the turn is counted with no cost, not a cost of 0', async (t) => {
    const recorded: UsageEntry[] = [];
    const session = scriptedSession(t, { usageLedger: { record: (entry) => recorded.push(entry) } });
    await session.prompt('usage 1000 200000');
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]?.cost, null);
    assert.equal(recorded[0]?.currency, null);
  });

  test('a cumulative cost: new session, growth, a change of currency, a count that went back', () => {
    assert.deepEqual(costOfTurn(null, { amount: 0.2, currency: 'USD' }), { amount: 0.2, currency: 'USD' });
    assert.deepEqual(costOfTurn({ amount: 0.2, currency: 'USD' }, { amount: 0.5, currency: 'USD' })?.currency, 'USD');
    assert.ok(Math.abs((costOfTurn({ amount: 0.2, currency: 'USD' }, { amount: 0.5, currency: 'USD' })?.amount ?? 0) - 0.3) < 1e-12);
    assert.deepEqual(costOfTurn({ amount: 0.2, currency: 'USD' }, { amount: 0.1, currency: 'EUR' }), { amount: 0.1, currency: 'EUR' });
    assert.deepEqual(costOfTurn({ amount: 0.9, currency: 'USD' }, { amount: 0.1, currency: 'USD' }), { amount: 0.1, currency: 'USD' });
    assert.equal(costOfTurn({ amount: 0.9, currency: 'USD' }, null), null);
  });
});
