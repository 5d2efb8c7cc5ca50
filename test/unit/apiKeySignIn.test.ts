import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { SessionController } from '../../src/conversation/sessionController';
import type { ApiKeyStore } from '../../src/conversation/signIn';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';

const SECRET = 'sk-scripted-0123456789abcdefghij';
let workspace: string;
before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'tandem-apikey-'));
});
after(() => rmSync(workspace, { recursive: true, force: true }));

function memoryKeys(answer: string | undefined): ApiKeyStore & { asked: string[]; stored: Map<string, Record<string, string>> } {
  const stored = new Map<string, Record<string, string>>();
  const asked: string[] = [];
  return {
    asked,
    stored,
    environmentFor: async (agentId) => ({ ...stored.get(agentId) }),
    ask: async (agentId, agentLabel, methodName, variable) => {
      asked.push(`${agentLabel}: ${methodName} (${variable})`);
      if (answer) stored.set(agentId, { ...stored.get(agentId), [variable]: answer });
      return answer;
    },
    forget: async (agentId) => {
      stored.delete(agentId);
    },
  };
}

describe('API-key sign-in', () => {
  test('asked once, kept by the editor, passed as the variable the agent names; never on the wire', async (t) => {
    const keys = memoryKeys(SECRET);
    const frames = new FrameStore();
    const environment = { workspaceRoot: workspace, trusted: true, frames, logger: silentLogger, apiKeys: keys };
    const definition = scriptedAgentDefinition({ SCRIPTED_AGENT_AUTH: 'apikey' });
    const first = new SessionController(definition, environment);
    t.after(() => first.dispose());
    assert.equal(await first.start(), false);
    assert.equal(first.connectionView.phase, 'signInRequired');
    assert.deepEqual(first.connectionView.signIn?.map((method) => `${method.methodId}:${method.kind}`), ['scripted-key:apiKey']);
    assert.ok(await first.signIn('scripted-key'));
    assert.deepEqual(keys.asked, ['Scripted agent: Scripted API key (SCRIPTED_API_KEY)']);
    await first.prompt('echo signed in');
    assert.equal(first.thread.lastAgentText(), 'You said: signed in');

    const second = new SessionController(definition, environment);
    t.after(() => second.dispose());
    assert.ok(await second.start(), 'a stored key signs in without asking');
    assert.equal(keys.asked.length, 1);
    assert.ok(!frames.frames().some((frame) => frame.text.includes(SECRET)), 'the key is never in the traffic');
  });

  test('dismissing the key prompt leaves the choice open', async (t) => {
    const session = new SessionController(scriptedAgentDefinition({ SCRIPTED_AGENT_AUTH: 'apikey' }), { workspaceRoot: workspace, trusted: true, frames: new FrameStore(), logger: silentLogger, apiKeys: memoryKeys(undefined) });
    t.after(() => session.dispose());
    await session.start();
    assert.equal(await session.signIn('scripted-key'), false);
    assert.equal(session.connectionView.phase, 'signInRequired');
  });
});
