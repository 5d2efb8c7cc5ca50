import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { AcpConnection } from '../../src/acp/acpConnection';
import type { AgentChannel } from '../../src/acp/agentChannel';

const models = { availableModels: [{ modelId: 'gemini-pro', name: 'Pro' }, { modelId: 'gemini-flash', name: 'Flash', description: 'Fast' }], currentModelId: 'gemini-pro' };
const expected = { availableModels: [{ modelId: 'gemini-pro', name: 'Pro', description: null }, { modelId: 'gemini-flash', name: 'Flash', description: 'Fast' }], currentModelId: 'gemini-pro' };

/** A Gemini-like agent on two in-memory streams: session answers carry the legacy `models` the schema lacks. */
function geminiLike(): { channel: Pick<AgentChannel, 'stdin' | 'stdout'>; stdout: PassThrough } {
  const stdout = new PassThrough();
  const send = (message: unknown) => stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...(message as object) })}\n`);
  let pending = '';
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString('utf8');
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
        const request = JSON.parse(pending.slice(0, newline)) as { id: number; method?: string };
        pending = pending.slice(newline + 1);
        if (!request.method) continue;
        // A request of the agent's own with the same id as Tandem's comes first: it must not be taken for the answer.
        send({ id: request.id, method: 'session/request_permission', params: { sessionId: 'elsewhere', toolCall: { toolCallId: 't' }, options: [] } });
        if (request.method === 'session/new') send({ id: request.id, result: { sessionId: 'gemini-1', models } });
        else if (request.method === 'session/load') send({ id: request.id, result: { models: { ...models, currentModelId: 'gemini-flash' } } });
        else send({ id: request.id, result: { sessionId: 'gemini-2' } });
      }
      callback();
    },
  });
  return { channel: { stdin, stdout }, stdout };
}

test('the connection reads the legacy models of the sessions it opens from the raw answers, not from what the SDK passes on', async (t) => {
  const { channel, stdout } = geminiLike();
  const connection = new AcpConnection(channel, () => undefined, {
    sessionUpdate: () => undefined,
    requestPermission: () => Promise.resolve({ outcome: { outcome: 'cancelled' } }),
    fs: null,
    terminals: null,
  });
  t.after(() => {
    connection.close();
    stdout.destroy();
  });

  await connection.newSession('/w');
  assert.deepEqual(connection.legacyModels('gemini-1'), expected);

  await connection.loadSession('gemini-1', '/w');
  assert.equal(connection.legacyModels('gemini-1')?.currentModelId, 'gemini-flash', 'a load answer is for the session its request named');

  const forked = await connection.forkSession('gemini-1', '/w');
  assert.equal(forked.sessionId, 'gemini-2');
  assert.equal(connection.legacyModels('gemini-2'), null, 'an answer without models gives none');
  assert.equal(connection.legacyModels('gemini-1')?.currentModelId, 'gemini-flash', 'a fork leaves the session it copied alone');
});
