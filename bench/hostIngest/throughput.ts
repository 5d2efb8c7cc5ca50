import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { AcpConnection } from '../../src/acp/acpConnection';
import type { AgentProcess } from '../../src/acp/agentProcess';
import { clientCapabilities, clientInfo } from '../../src/acp/clientCapabilities';
import { FrameStore } from '../../src/acp/frames';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { HostToWebview } from '../../src/contract/messages';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { DeltaBatcher } from '../../src/panel/deltaBatcher';
import { ThreadModel } from '../../src/thread/threadModel';
import { silentLogger } from '../../src/util/logger';
import { RawNdjsonClient } from '../../test/support/raw-ndjson-client';
import { FLOOD_CHUNK_TEXT, PIPE_CHUNK_BYTES } from '../shared/flood';
import { agentEnv, startClock, withTimeout, type Cleanup, type Timed } from '../shared/resources';
import { folderScope } from '../../src/workspace/workspaceScope';

const RUN_TIMEOUT_MS = 60_000;

export interface PipelineRun extends Timed {
  /** Batches the DeltaBatcher handed on (threadDeltas messages, for the presenter). */
  batches: number;
  /** Deltas inside those batches after merging. */
  deltas: number;
}

/** Baseline: split the NDJSON text into lines and JSON.parse each one, nothing else. */
export function parseOnly(text: string, expected: number): Timed {
  const clock = startClock();
  let parsed = 0;
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    const message = JSON.parse(line) as { method?: unknown };
    if (message.method !== undefined) parsed++;
  }
  const elapsed = clock();
  if (parsed !== expected) throw new Error(`parse-only saw ${parsed} of ${expected} lines`);
  return elapsed;
}

/** A thread with a user message already in, whose batcher counts the batches and deltas after it. */
function countingThread(): { thread: ThreadModel; batcher: DeltaBatcher; counts: { batches: number; deltas: number } } {
  const counts = { batches: 0, deltas: 0 };
  const thread = new ThreadModel();
  const batcher = new DeltaBatcher((batch) => {
    counts.batches++;
    counts.deltas += batch.length;
  });
  thread.onDelta((delta) => batcher.push(delta));
  thread.addUserMessage('flood');
  batcher.flush();
  counts.batches = 0;
  counts.deltas = 0;
  return { thread, batcher, counts };
}

/**
 * No transport, no SDK: split + JSON.parse + ThreadModel.applyUpdate + DeltaBatcher.push, then
 * one flush (the loop is synchronous, so the 16 ms timer never fires inside it).
 */
export function threadAndBatcherOnly(text: string, expected: number): PipelineRun {
  const { thread, batcher, counts } = countingThread();
  const clock = startClock();
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    const message = JSON.parse(line) as { params: acp.SessionNotification };
    thread.applyUpdate(message.params.update);
  }
  batcher.flush();
  const elapsed = clock();
  batcher.dispose();
  checkText(thread, expected);
  return { ...elapsed, batches: counts.batches, deltas: counts.deltas };
}

/** `text` as a Node Readable that hands out `PIPE_CHUNK_BYTES` at a time, like a pipe read. */
function pipeLikeReadable(text: string): Readable {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      this.push(bytes.subarray(offset, offset + PIPE_CHUNK_BYTES));
      offset += PIPE_CHUNK_BYTES;
    },
  });
}

function discardingWritable(): Writable {
  return new Writable({ write: (_chunk, _encoding, callback) => callback() });
}

/**
 * For attribution: the ACP SDK's client on its own (Readable.toWeb -> ndJsonStream -> JSON-RPC
 * dispatch + schema validation -> a handler that only counts), without any Tandem code.
 */
export async function sdkClientOnly(text: string, expected: number): Promise<Timed> {
  const stdout = pipeLikeReadable(text);
  const stdin = discardingWritable();
  let received = 0;
  let finish: (elapsed: Timed) => void = () => undefined;
  const done = new Promise<Timed>((resolve) => (finish = resolve));
  const clock = startClock();
  const connection = acp
    .client({ name: 'bench' })
    .onNotification(acp.methods.client.session.update, () => {
      if (++received === expected) finish(clock());
    })
    .connect(acp.ndJsonStream(Writable.toWeb(stdin) as WritableStream<Uint8Array>, Readable.toWeb(stdout) as ReadableStream<Uint8Array>));
  try {
    const closedEarly = connection.closed.then(() => {
      throw new Error(`SDK-only connection closed after ${received} of ${expected} updates`);
    });
    void closedEarly.catch(() => undefined);
    return await withTimeout(Promise.race([done, closedEarly]), RUN_TIMEOUT_MS, 'SDK-only run');
  } finally {
    connection.close();
    stdout.destroy();
    stdin.destroy();
  }
}

/**
 * Tandem's real AcpConnection over in-memory Node streams instead of a child's pipes:
 * Readable.toWeb -> lineTee (into a FrameStore) -> SDK framing and validation ->
 * ThreadModel -> DeltaBatcher. Ends when the last notification is applied and flushed.
 */
export async function inProcessConnection(text: string, expected: number, sessionId: string): Promise<PipelineRun> {
  const stdout = pipeLikeReadable(text);
  const stdin = discardingWritable();
  // AcpConnection only touches the process's stdout and stdin.
  const fakeProcess = { stdout, stdin } as unknown as AgentProcess;

  const { thread, batcher, counts } = countingThread();

  const frames = new FrameStore();
  let applied = 0;
  let finish: (elapsed: Timed) => void = () => undefined;
  const done = new Promise<Timed>((resolve) => (finish = resolve));
  const clock = startClock();
  const connection = new AcpConnection(fakeProcess, (frame) => frames.record(frame), {
    sessionUpdate: (notification) => {
      if (notification.sessionId !== sessionId) return;
      thread.applyUpdate(notification.update);
      if (++applied === expected) {
        batcher.flush();
        finish(clock());
      }
    },
    requestPermission: () => Promise.reject(new Error('no permissions in this benchmark')),
    fs: null,
    terminals: null,
  });
  try {
    const closedEarly = connection.closed.then(() => {
      throw new Error(`in-memory connection closed after ${applied} of ${expected} updates`);
    });
    void closedEarly.catch(() => undefined);
    const elapsed = await withTimeout(Promise.race([done, closedEarly]), RUN_TIMEOUT_MS, 'in-process connection run');
    checkText(thread, expected);
    if (frames.frames().length < Math.min(expected, 20_000)) throw new Error('the raw tee missed frames');
    return { ...elapsed, batches: counts.batches, deltas: counts.deltas };
  } finally {
    connection.close();
    batcher.dispose();
    // Its redaction of the kept frames goes on in the background: it must not run into the next measurement.
    frames.dispose();
    stdout.destroy();
    stdin.destroy();
  }
}

/**
 * The whole host path against the compiled scripted agent: ChatPresenter (as the extension
 * wires it) -> SessionController -> AcpConnection -> ThreadModel -> DeltaBatcher -> post().
 * Timed from sendPrompt() to the last threadDeltas message posted.
 */
export async function endToEndTandem(definition: AgentDefinition, cwd: string, count: number, cleanup: Cleanup): Promise<PipelineRun & { wireLine: string | null }> {
  let batches = 0;
  let deltas = 0;
  let lastBatch: Timed = { ms: 0, cpuMs: 0 };
  let clock: () => Timed = () => ({ ms: 0, cpuMs: 0 });
  const frames = new FrameStore();
  const post = (message: HostToWebview) => {
    if (message.type !== 'threadDeltas') return;
    batches++;
    deltas += message.deltas.length;
    lastBatch = clock();
  };
  const presenter = new ChatPresenter(() => [definition], definition.id, { workspace: () => folderScope(cwd), trusted: true, frames, logger: silentLogger }, post, {
    showLog: () => undefined,
    showTraffic: () => undefined,
    openLink: () => undefined,
    rememberAgent: () => undefined,
  });
  const stop = cleanup.add('stop flood agent (Tandem)', async () => {
    await presenter.currentSession.stopAgent();
    presenter.dispose();
    frames.dispose();
  });
  try {
    await presenter.handle({ type: 'ready' });
    const session = presenter.currentSession;
    if (!(await withTimeout(session.start(), RUN_TIMEOUT_MS, 'Tandem start for flood'))) {
      throw new Error(`Tandem could not start the scripted agent: ${session.connectionView.message ?? ''}`);
    }
    batches = 0;
    deltas = 0;
    clock = startClock();
    await withTimeout(presenter.sendPrompt(`flood ${count}`), RUN_TIMEOUT_MS, `Tandem flood ${count}`);
    const elapsed = lastBatch;
    checkText(session.thread, count);
    const ended = session.thread.snapshot().at(-1);
    if (ended?.kind !== 'turnEnded' || ended.stopReason !== 'end_turn') throw new Error('the flood turn did not end with end_turn');
    const wireLine = frames.frames().find((frame) => frame.direction === 'in' && frame.text.includes('agent_message_chunk'))?.text ?? null;
    return { ...elapsed, batches, deltas, wireLine };
  } finally {
    await stop();
  }
}

/** Reference for what agent + pipe allow: the raw client receiving the same flood (parse only). */
export async function endToEndRaw(definition: AgentDefinition, cwd: string, count: number, cleanup: Cleanup): Promise<Timed> {
  let received = 0;
  const client = RawNdjsonClient.spawn(
    { command: definition.command, args: definition.args, env: agentEnv(definition), cwd },
    {
      requestTimeoutMs: RUN_TIMEOUT_MS,
      onNotification: (method, params) => {
        if (method === 'session/update' && (params as acp.SessionNotification).update.sessionUpdate === 'agent_message_chunk') received++;
      },
    },
  );
  const close = cleanup.add('stop flood agent (raw)', () => client.close());
  try {
    await client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: clientCapabilities({ fs: false, terminals: false }), clientInfo });
    const { sessionId } = await client.request<{ sessionId: string }>('session/new', { cwd, mcpServers: [] });
    const clock = startClock();
    const result = await client.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: `flood ${count}` }] });
    const elapsed = clock();
    if (result.stopReason !== 'end_turn' || received !== count) throw new Error(`raw flood: ${received} of ${count} chunks, stop reason ${result.stopReason}`);
    return elapsed;
  } finally {
    await close();
  }
}

function checkText(thread: ThreadModel, count: number): void {
  const length = thread.lastAgentText().length;
  if (length !== count * FLOOD_CHUNK_TEXT.length) throw new Error(`thread holds ${length} characters, expected ${count * FLOOD_CHUNK_TEXT.length}`);
}
