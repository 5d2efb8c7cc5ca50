import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { memoryApiKeys as memoryKeys } from '../support/memoryApiKeys';
import { scriptedEnvironment, scriptedSession } from '../support/sessionBuilders';

const SECRET = 'sk-scripted-0123456789abcdefghij';
const APIKEY_AGENT = { SCRIPTED_AGENT_AUTH: 'apikey' };

describe('API-key sign-in', () => {
  test('asked once, kept by the editor, passed as the variable the agent names; never on the wire', async (t) => {
    const keys = memoryKeys(SECRET);
    const environment = scriptedEnvironment(t, { apiKeys: keys });
    const { frames } = environment;
    const first = scriptedSession(t, { env: APIKEY_AGENT, environment });
    assert.equal(await first.start(), false);
    assert.equal(first.connectionView.phase, 'signInRequired');
    assert.deepEqual(first.connectionView.signIn?.map((method) => `${method.methodId}:${method.kind}`), ['scripted-key:apiKey']);
    assert.ok(await first.signIn('scripted-key'));
    assert.deepEqual(keys.asked, ['Scripted agent: Scripted API key (SCRIPTED_API_KEY)']);
    await first.prompt('echo signed in');
    assert.equal(first.thread.lastAgentText(), 'You said: signed in');

    const second = scriptedSession(t, { env: APIKEY_AGENT, environment });
    assert.ok(await second.start(), 'a stored key signs in without asking');
    assert.equal(keys.asked.length, 1);
    assert.ok(!frames.frames().some((frame) => frame.text.includes(SECRET)), 'the key is never in the traffic');
  });

  test('dismissing the key prompt leaves the choice open', async (t) => {
    const session = scriptedSession(t, { env: APIKEY_AGENT, apiKeys: memoryKeys(undefined) });
    await session.start();
    assert.equal(await session.signIn('scripted-key'), false);
    assert.equal(session.connectionView.phase, 'signInRequired');
  });
});
