/**
 * One agent process serving several conversations: each `session/update` reaches the
 * conversation that holds its session id and no other, as requests do; an update for a session
 * no conversation holds yet (sent before `session/new` answered) reaches only the conversations
 * still opening. Driven by raw NDJSON on a channel's stdout, as an agent writes it.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentChannel, AgentExit } from '../../src/acp/agentChannel';
import { AgentHost } from '../../src/acp/agentHost';
import type { ClientPorts } from '../../src/acp/clientPorts';
import { waitFor } from '../support/waitFor';

class WireAgent implements AgentChannel {
  readonly pid = undefined;
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly exited = new Promise<AgentExit>(() => undefined);
  readonly running = true;
  stderrTail(): string[] {
    return [];
  }
  onStderrLine() {
    return { dispose: () => undefined };
  }
  stop(): Promise<AgentExit> {
    this.stdout.end();
    return Promise.resolve({ code: 0, signal: null, requested: true, spawnError: null, stderrTail: [] });
  }
  dispose(): void {
    this.stdout.end();
  }
  send(sessionId: string, text: string): void {
    const update = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
    this.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } })}\n`);
  }
}

function recordingPorts(into: string[]): ClientPorts {
  return {
    sessionUpdate: (notification: acp.SessionNotification) => {
      const { update } = notification;
      into.push(update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : update.sessionUpdate);
    },
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
    fs: null,
    terminals: null,
  };
}

test('updates on a shared agent process go to the session that holds their id; unknown ids only to sessions still opening', async (t) => {
  const agent = new WireAgent();
  const host = new AgentHost({ command: 'wire-agent', args: [], env: {}, cwd: '/' }, () => undefined, { fs: false, terminals: false }, () => agent);
  t.after(() => host.connection.close());
  const received = { a: [] as string[], b: [] as string[], opening: [] as string[] };
  host.attach({ sessionId: () => 'A', ports: recordingPorts(received.a) });
  host.attach({ sessionId: () => 'B', ports: recordingPorts(received.b) });
  host.attach({ sessionId: () => null, ports: recordingPorts(received.opening) });

  agent.send('A', 'for A');
  agent.send('B', 'for B');
  agent.send('C', 'for a session still opening');
  agent.send('A', 'for A again');
  await waitFor(() => (received.a.length === 2 && received.b.length === 1 && received.opening.length === 1) || undefined, 'every update delivered');

  assert.deepEqual(received, { a: ['for A', 'for A again'], b: ['for B'], opening: ['for a session still opening'] });
});
