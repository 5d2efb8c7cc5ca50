import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { AcpConnection } from '../../src/acp/acpConnection';
import { waitFor } from '../support/waitFor';

const update = (params: unknown) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params })}\n`;
const chunk = (text: string) => ({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

test('session/update reaches the session only as the schema shaped it: malformed updates are dropped or cleaned, order is kept', async (t) => {
  const stdout = new PassThrough();
  const stdin = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const received: acp.SessionNotification[] = [];
  const connection = new AcpConnection({ stdout, stdin }, () => undefined, {
    sessionUpdate: (notification) => received.push(notification),
    requestPermission: () => Promise.reject(new Error('not in this test')),
    fs: null,
    terminals: null,
  });
  const errors = t.mock.method(console, 'error', () => undefined);
  t.after(() => {
    connection.close();
    stdout.destroy();
  });
  stdout.write(update(chunk('first ')));
  stdout.write(update({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } } }));
  stdout.write(update({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 42 } } }));
  stdout.write(update({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'no session' } } }));
  stdout.write(update({ sessionId: 's1', update: { sessionUpdate: 'tool_call', title: 'no id' } }));
  stdout.write(update({ sessionId: 's1', update: { sessionUpdate: 'plan', entries: 'step one' } }));
  stdout.write(update(chunk('second')));
  await waitFor(() => received.length >= 3, 'the valid updates');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(received.map((notification) => notification.update.sessionUpdate === 'agent_message_chunk' && notification.update.content.type === 'text' ? notification.update.content.text : notification.update.sessionUpdate), ['first ', 'plan', 'second']);
  const plan = received[1]?.update;
  assert.deepEqual(plan?.sessionUpdate === 'plan' && plan.entries, [], 'entries that are not a list arrive as none, never as the raw string');
  assert.equal(errors.mock.callCount(), 4, 'each dropped update is reported');
});
