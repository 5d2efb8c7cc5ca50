import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { AcpConnection, type ConnectionFailure } from '../../src/acp/acpConnection';
import { AgentHostPool } from '../../src/acp/agentHost';
import type { SessionController } from '../../src/conversation/sessionController';
import type { ThreadEntry } from '../../src/thread/entries';
import { injectingStarter, type InjectingAgent, type InjectingStarter } from '../support/injectingAgent';
import { groupMembers } from '../support/processGroups';
import { scriptedEnvironment, scriptedSession, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

const SDK_LIMIT = 32 * 1024 * 1024;

/** A session whose agent output the test can write into. */
function injectableSession(t: TestScope, kind: 'memory' | 'process' = 'memory', onStart?: (agent: InjectingAgent) => void): { session: SessionController; agents: InjectingStarter } {
  const agents = injectingStarter(kind, onStart);
  const environment = { ...scriptedEnvironment(t, { agent: 'process' }), startAgent: agents.start };
  return { session: scriptedSession(t, { environment }), agents };
}

function lastOf<K extends ThreadEntry['kind']>(session: SessionController, kind: K): Extract<ThreadEntry, { kind: K }> | undefined {
  return session.thread.snapshot().filter((entry): entry is Extract<ThreadEntry, { kind: K }> => entry.kind === kind).at(-1);
}

/** Starts a long streamed turn and waits until it is under way. */
async function midTurn(session: SessionController): Promise<{ turn: Promise<void> }> {
  const turn = session.prompt('slow');
  await waitFor(() => session.thread.lastAgentText().length > 20, 'the turn to stream');
  return { turn };
}

/** A notification no schema accepts at this depth: the SDK echoes it back and cannot serialize it. */
const deeplyNested = (depth: number) => `{"jsonrpc":"2.0","deep":${'['.repeat(depth)}${']'.repeat(depth)}}\n`;

describe('a frame that ends the connection', () => {
  test('a line over the SDK limit mid-turn ends the turn with one sentence, stops the agent and offers Restart', async (t) => {
    const { session, agents } = injectableSession(t);
    const { turn } = await midTurn(session);
    const first = agents.latest();
    await first.inject(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"${'x'.repeat(SDK_LIMIT)}"}}\n`);
    await turn;
    const sentence = 'Scripted agent sent a message larger than 32 MB; Tandem closed the connection.';
    assert.equal(session.connectionView.phase, 'exited');
    assert.equal(session.connectionView.message, sentence);
    const ended = lastOf(session, 'turnEnded');
    assert.equal(ended?.stopReason, 'error');
    assert.equal(ended?.detail, sentence);
    const notice = lastOf(session, 'notice');
    assert.equal(notice?.text, sentence);
    assert.deepEqual(notice?.actions, ['showLog', 'restartAgent']);
    await waitFor(() => !first.running, 'the agent to be stopped');
    assert.equal((await first.exited).requested, true);

    assert.ok(await session.restart(), 'Restart opens a new session');
    assert.equal(agents.agents.length, 2, 'on a new agent');
    await session.prompt('echo after the restart');
    assert.equal(session.thread.lastAgentText(), 'You said: after the restart');
  });

  test('a line over the limit without a newline, in pieces, ends the connection the same way', async (t) => {
    const { session, agents } = injectableSession(t);
    assert.ok(await session.start());
    const piece = 'y'.repeat(4 * 1024 * 1024);
    for (let sent = 0; sent <= SDK_LIMIT && session.connectionView.phase === 'ready'; sent += piece.length) await agents.latest().inject(piece);
    await waitFor(() => session.connectionView.phase === 'exited', 'the connection to end');
    assert.match(session.connectionView.message ?? '', /larger than 32 MB/);
  });

  test('a deeply nested frame does not leave a session that says ready but fails every prompt', async (t) => {
    const { session, agents } = injectableSession(t);
    const { turn } = await midTurn(session);
    await agents.latest().inject(deeplyNested(10_000));
    await turn;
    assert.notEqual(session.connectionView.phase, 'ready');
    assert.equal(session.connectionView.message, 'Scripted agent sent a message Tandem could not process (it was nested too deeply); Tandem closed the connection.');
    assert.equal(lastOf(session, 'turnEnded')?.stopReason, 'error');
    assert.deepEqual(lastOf(session, 'notice')?.actions, ['showLog', 'restartAgent']);
    // The next prompt starts the agent again, as after a crash.
    await session.prompt('echo still works');
    assert.equal(session.thread.lastAgentText(), 'You said: still works');
    assert.equal(session.connectionView.phase, 'ready');
  });

  test('an oversized line while opening the session fails the start with the sentence', async (t) => {
    let first = true;
    const { session } = injectableSession(t, 'memory', (agent) => {
      if (first) void agent.inject(`${'z'.repeat(SDK_LIMIT + 1)}\n`);
      first = false;
    });
    assert.equal(await session.start(), false);
    assert.equal(session.connectionView.message, 'Scripted agent sent a message larger than 32 MB; Tandem closed the connection.');
    assert.ok(await session.restart());
  });

  test('every session on a shared agent hears of its failed connection, and a new one gets a new agent', async (t) => {
    const agents = injectingStarter('memory');
    const environment = { ...scriptedEnvironment(t, { agent: 'process', agentHosts: new AgentHostPool() }), startAgent: agents.start };
    const [first, second] = [scriptedSession(t, { environment }), scriptedSession(t, { environment })];
    assert.ok((await first?.start()) && (await second?.start()));
    assert.equal(agents.agents.length, 1, 'the two sessions share one agent');
    await agents.latest().inject(`${'x'.repeat(SDK_LIMIT + 1)}\n`);
    for (const session of [first, second]) await waitFor(() => session?.connectionView.phase === 'exited', 'each session to see the failure');
    const third = scriptedSession(t, { environment });
    await third.prompt('echo fresh');
    assert.equal(third.thread.lastAgentText(), 'You said: fresh');
    assert.equal(agents.agents.length, 2, 'not the failed connection');
  });

  test('a spawned agent whose line is over the limit is stopped with its whole process group', async (t) => {
    const { session, agents } = injectableSession(t, 'process');
    await session.prompt('spawn-children');
    const pgid = agents.latest().pid ?? 0;
    assert.equal(groupMembers(pgid).length, 3, 'the agent and its two children');
    const { turn } = await midTurn(session);
    await agents.latest().inject(`${'x'.repeat(SDK_LIMIT + 1)}\n`);
    await turn;
    assert.equal(session.connectionView.phase, 'exited');
    await waitFor(() => groupMembers(pgid).length === 0, 'the agent and its children to be gone', 5000);
  });
});

describe('AcpConnection failure', () => {
  /** A connection on two in-memory streams; `agentOutput` is what the agent would write. */
  function connection(t: TestScope) {
    const agentOutput = new PassThrough();
    const stdin = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const acpConnection = new AcpConnection({ stdout: agentOutput, stdin }, () => undefined, {
      sessionUpdate: () => undefined,
      requestPermission: () => Promise.reject(new Error('not in this test')),
      fs: null,
      terminals: null,
    });
    t.after(() => acpConnection.close());
    return { agentOutput, acpConnection };
  }

  const failureAfter = async (t: TestScope, write: (agentOutput: PassThrough) => void): Promise<ConnectionFailure> => {
    const { agentOutput, acpConnection } = connection(t);
    write(agentOutput);
    return acpConnection.failed;
  };

  test('is named for what ended it, and is none when Tandem closed it', async (t) => {
    assert.deepEqual(await failureAfter(t, (out) => out.write(`${'x'.repeat(SDK_LIMIT + 1)}\n`)), { kind: 'tooLarge', maxBytes: SDK_LIMIT });
    assert.deepEqual(await failureAfter(t, (out) => out.write(deeplyNested(10_000))), { kind: 'unprocessable', detail: 'it was nested too deeply' });
    assert.deepEqual(await failureAfter(t, (out) => out.end()), { kind: 'ended', detail: null });
    const { acpConnection } = connection(t);
    acpConnection.close();
    await acpConnection.closed;
    assert.equal(acpConnection.failure, null);
  });

  test('an agent that keeps writing after a frame ended its connection cannot throw in the host', async (t) => {
    // Node's Readable.toWeb throws an uncaught ERR_INVALID_STATE here (nodejs/node#64529).
    t.mock.method(console, 'error', () => undefined);
    const { agentOutput, acpConnection } = connection(t);
    agentOutput.write(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}\n`);
    for (let index = 0; index < 2000; index++) agentOutput.write(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${index}"}}}}\n`);
    assert.equal((await acpConnection.failed).kind, 'unprocessable');
    await new Promise((resolve) => setTimeout(resolve, 200));
  });

  test('frames the SDK answers and goes on from do not fail it', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const { agentOutput, acpConnection } = connection(t);
    for (const line of ['not json', '[1,2]', '42', `{"jsonrpc":"2.0","method":"session/update","params":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, '{"jsonrpc":"2.0","id":99,"result":{}}']) agentOutput.write(`${line}\n`);
    agentOutput.write(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","_meta":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}}}\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(acpConnection.failure, null);
  });
});
