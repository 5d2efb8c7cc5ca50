import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { PermissionBroker } from '../../src/permissions/permissionBroker';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { ThreadModel } from '../../src/thread/threadModel';
import { ordinaryAlways, policyCases, policyWorkspace, type PolicyToolCall } from '../support/policyCases';

const options: acp.PermissionOption[] = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'always', name: 'Always allow', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' },
];

/** A broker over Tandem's policy, as one conversation has it; `ask` answers what the agent is sent, or that the user was asked. */
function conversation(root: string) {
  const thread = new ThreadModel();
  const broker = new PermissionBroker(thread);
  broker.usePolicy(new PermissionPolicy({ workspaceRoots: () => [root], autoAllowKinds: () => [], store: new MemoryGrantStore() }).forAgent('agent'));
  let next = 0;
  const ask = (call: PolicyToolCall, answer: string): Promise<acp.RequestPermissionResponse | 'asked'> => {
    const toolCallId = `call-${next++}`;
    const response = broker.request({ sessionId: 's1', toolCall: { toolCallId, ...call }, options }, new AbortController().signal);
    const card = thread.toolCall(toolCallId)?.permission;
    if (!card) return response;
    broker.answer(card.requestId, answer);
    return response.then(() => 'asked');
  };
  return { ask };
}

describe('policy cases: one ordinary "Always" covers only calls whose every path, command and site it covers', () => {
  test('every case is asked or allowed as it must be', async (t) => {
    const root = policyWorkspace(t);
    const { ask } = conversation(root);
    for (const call of ordinaryAlways(root)) assert.equal(await ask(call, 'always'), 'asked', `${call.title} is asked the first time`);
    const cases = policyCases(root);
    const outcomes = [];
    for (const item of cases) outcomes.push({ item, outcome: (await ask(item.call, 'no')) === 'asked' ? 'ask' : 'allow' });
    const wronglyAllowed = outcomes.filter(({ item, outcome }) => item.expect === 'ask' && outcome === 'allow');
    const wronglyAsked = outcomes.filter(({ item, outcome }) => item.expect === 'allow' && outcome === 'ask');
    const mustAsk = cases.filter((item) => item.expect === 'ask').length;
    t.diagnostic(`policy cases: ${wronglyAllowed.length} of ${mustAsk} auto-allowed wrongly; ${wronglyAsked.length} of ${cases.length - mustAsk} ordinary ones asked`);
    assert.deepEqual(wronglyAllowed.map(({ item }) => item.name), [], 'auto-allowed although they must be asked');
    assert.deepEqual(wronglyAsked.map(({ item }) => item.name), [], 'asked although the "Always" covers them');
    assert.ok(cases.length >= 30);
  });
});
