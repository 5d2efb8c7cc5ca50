/**
 * Inspector: what looking at 20,000 frames costs (open, filter, report), what a 20,000-frame
 * recording costs to replay instantly, and what keeping frames for recordings costs the host
 * while an agent floods it.
 */
import { Readable, Writable } from 'node:stream';
import { AcpConnection } from '../../src/acp/acpConnection';
import { FrameStore } from '../../src/acp/frames';
import { type Frame } from '../../src/wire/frame';
import { deliveryMarks } from '../../src/inspector/deliveryCheck';
import { fidelityReport } from '../../src/inspector/fidelityReport';
import { NO_FILTER } from '../../src/inspector/frameFilter';
import { InspectorModel } from '../../src/inspector/inspectorModel';
import { exportFrames, readRecording, writeRecording } from '../../src/inspector/recording';
import { storeRedaction } from '../../src/redaction/slicedRedaction';
import { RecordingReplay } from '../../src/replay/panel/recordingReplay';
import { ThreadModel } from '../../src/thread/threadModel';
import { silentLogger } from '../../src/util/logger';
import { FrameScript } from '../../test/support/frameBuilders';
import { distribution, prefixed, slowdown, type Bench, type BenchContext, type Figures } from '../shared/figures';
import { count, ms, ratio } from '../shared/report';
import { startClock, WARMUP_ROUNDS, withTimeout } from '../shared/resources';
import { floodNdjson, PIPE_CHUNK_BYTES } from '../shared/flood';

const FRAMES = 20_000;
const SESSION = 'bench-1';
const RUN_TIMEOUT_MS = 120_000;

/**
 * A conversation of about `frames` frames shaped like real traffic: turns of streamed text,
 * tool calls with fs reads and a permission, so every index and filter has work to do.
 */
function conversation(frames: number): Frame[] {
  const script = new FrameScript(Date.now()).open(SESSION);
  let agentId = 0;
  for (let turn = 0; script.frames.length < frames - 2; turn++) {
    const promptId = turn + 2;
    script.request('out', promptId, 'session/prompt', { sessionId: SESSION, prompt: [{ type: 'text', text: `turn ${turn}` }] });
    for (let i = 0; i < 3; i++) {
      const tool = `t${turn}-${i}`;
      script.toolCall(SESSION, tool, i === 2 ? 'edit' : 'read', { locations: [{ path: `/work/src/file${turn}-${i}.ts` }] });
      if (i === 2) script.request('in', agentId, 'session/request_permission', { sessionId: SESSION, toolCall: { toolCallId: tool }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] }).result('out', agentId++, { outcome: { outcome: 'selected', optionId: 'allow' } });
      script.request('in', agentId, 'fs/read_text_file', { sessionId: SESSION, path: `/work/src/file${turn}-${i}.ts` }).result('out', agentId++, { content: 'export const x = 1;\n'.repeat(20) });
      script.toolDone(SESSION, tool);
    }
    for (let chunk = 0; chunk < 80; chunk++) script.update(SESSION, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `word${chunk} ` } });
    script.result('in', promptId, { stopReason: 'end_turn' });
  }
  return script.frames;
}

/** Samples of `measure` after the warm-up rounds. */
async function samples(runs: number, measure: () => Promise<number> | number): Promise<number[]> {
  const out: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    const value = await measure();
    if (round >= WARMUP_ROUNDS) out.push(value);
  }
  return out;
}

function timed(run: () => unknown): number {
  const clock = startClock();
  run();
  return clock().ms;
}

async function timedAsync(run: () => Promise<unknown>): Promise<number> {
  const clock = startClock();
  await run();
  return clock().ms;
}

async function replayInstant(text: string): Promise<number> {
  const recording = readRecording(text);
  const clock = startClock();
  const replay = new RecordingReplay(recording, { speed: 'instant', logger: silentLogger, workspaceRoot: process.cwd() });
  try {
    await withTimeout(replay.play(), RUN_TIMEOUT_MS, 'instant replay');
    return clock().ms;
  } finally {
    replay.dispose();
  }
}

/** `chunks` updates through the real AcpConnection in memory into a thread; `keep` decides whether frames are kept. */
async function ingest(text: string, chunks: number, keep: boolean): Promise<number> {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += PIPE_CHUNK_BYTES) parts.push(bytes.subarray(offset, offset + PIPE_CHUNK_BYTES));
  const stdout = Readable.from(parts);
  const stdin = new Writable({ write: (_chunk, _encoding, done) => done() });
  const store = new FrameStore();
  const thread = new ThreadModel();
  let applied = 0;
  let finish: (value: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  const clock = startClock();
  const connection = new AcpConnection({ stdout, stdin }, keep ? (frame) => store.record(frame) : () => undefined, {
    sessionUpdate: (notification) => {
      thread.applyUpdate(notification.update);
      if (++applied === chunks) finish(clock().ms);
    },
    requestPermission: () => Promise.reject(new Error('no permissions in this benchmark')),
    fs: null,
    terminals: null,
  });
  try {
    return await withTimeout(done, RUN_TIMEOUT_MS, 'ingest run');
  } finally {
    store.dispose();
    connection.close();
    stdout.destroy();
    stdin.destroy();
  }
}

function storeOf(frames: readonly Frame[]): FrameStore {
  const store = new FrameStore();
  for (const frame of frames) store.record(frame);
  return store;
}

/**
 * An export of the frames: redacted afresh (as before the store redacted each frame once), and
 * from a store that already redacted them while the traffic paused; rounds alternate which goes
 * first. The store's own one-time redaction is measured apart: it runs in slices while idle.
 */
async function exportCosts(frames: readonly Frame[], runs: number): Promise<Figures> {
  const afresh: number[] = [];
  const cached: number[] = [];
  const once: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    const store = storeOf(frames);
    try {
      const catchUp = await timedAsync(() => store.redacted(store.frames()));
      const measures = [() => timedAsync(() => exportFrames(frames)), () => timedAsync(() => exportFrames(store.frames(), storeRedaction(store)))];
      const [first, second] = round % 2 === 0 ? measures : [...measures].reverse();
      const a = await (first as () => Promise<number>)();
      const b = await (second as () => Promise<number>)();
      if (round < WARMUP_ROUNDS) continue;
      once.push(catchUp);
      afresh.push(round % 2 === 0 ? a : b);
      cached.push(round % 2 === 0 ? b : a);
    } finally {
      store.dispose();
    }
  }
  return {
    exportAfreshMs: distribution(afresh, 'ms'),
    exportFromStoreMs: distribution(cached, 'ms'),
    exportSpeedup: slowdown(afresh, cached),
    storeRedactionOnceMs: distribution(once, 'ms'),
  };
}

async function measure(context: BenchContext): Promise<Figures> {
  const runs = context.options.quick ? 3 : Math.max(5, context.options.throughputRuns);
  const frames = conversation(FRAMES);
  const model = new InspectorModel(frames);
  await model.shown();
  const toolCallId = [...model.index.byToolCall.keys()][Math.floor(model.index.byToolCall.size / 2)] ?? null;
  const figures: Figures = {
    // Until the list shows: the index and the rows. Search and details wait for the redaction, which follows.
    openMs: distribution(await samples(runs, () => timed(() => new InspectorModel(frames).rows())), 'ms'),
    redactMs: distribution(await samples(runs, () => timedAsync(() => new InspectorModel(frames).shown())), 'ms'),
    searchMs: distribution(await samples(runs, () => timedAsync(() => model.applyFilter({ ...NO_FILTER, text: 'file12-1' }))), 'ms'),
    methodAndDirectionMs: distribution(await samples(runs, () => timedAsync(() => model.applyFilter({ ...NO_FILTER, method: 'fs/read_text_file', direction: 'in' }))), 'ms'),
    toolCallMs: distribution(await samples(runs, () => timedAsync(() => model.applyFilter({ ...NO_FILTER, toolCallId }))), 'ms'),
    deliveryCheckMs: distribution(await samples(runs, () => timedAsync(() => deliveryMarks(frames, model.index))), 'ms'),
    reportMs: distribution(await samples(runs, () => timed(() => fidelityReport({ frames, agentLabel: 'bench', workspaceRoots: ['/work'], files: [], projectRules: [], tandemGrants: [] }))), 'ms'),
  };
  context.progress(`inspector: ${count(frames.length)} frames indexed, filtered and reported`);
  Object.assign(figures, await exportCosts(frames, runs));
  context.progress(`inspector: ${count(frames.length)} frames exported`);
  const recording = await writeRecording({ protocolVersion: 1, agent: { name: 'bench', title: null, version: null }, cwd: null, recordedAt: new Date().toISOString() }, frames);
  figures.replayInstantMs = distribution(await samples(context.options.quick ? 1 : 3, () => replayInstant(recording)), 'ms');
  context.progress(`inspector: ${count(frames.length)}-frame recording replayed`);
  const { chunks } = context.options;
  const flood = floodNdjson(chunks, SESSION);
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    // Alternating order, so drift hits both alike.
    const first = await ingest(flood, chunks, round % 2 === 0);
    const second = await ingest(flood, chunks, round % 2 !== 0);
    if (round < WARMUP_ROUNDS) continue;
    (round % 2 === 0 ? on : off).push(first);
    (round % 2 === 0 ? off : on).push(second);
  }
  figures.ingestRecordingOnMs = distribution(on, 'ms');
  figures.ingestRecordingOffMs = distribution(off, 'ms');
  figures.ingestRecordingRatio = slowdown(on, off);
  figures.frames = { value: frames.length, unit: 'count' };
  return figures;
}

export const inspectorBench: Bench = {
  name: 'inspector',
  title: 'Inspector: 20,000 frames opened, filtered and reported; a 20,000-frame recording replayed; ingest with frames kept',
  async run(context) {
    const figures = await measure(context);
    const value = (key: string) => figures[key]?.value ?? Number.NaN;
    return {
      section: 'inspector',
      figures: prefixed('inspector', figures),
      lines: [
        `   ${count(value('frames'))} frames (turns of tool calls, fs reads, a permission and streamed text); medians.`,
        `   open (index + rows, the list shows): ${ms(value('openMs'))}; redaction for search and details, after: ${ms(value('redactMs'))}; search: ${ms(value('searchMs'))}; method + direction: ${ms(value('methodAndDirectionMs'))}; one tool call: ${ms(value('toolCallMs'))}`,
        `   export (NDJSON, redacted): afresh ${ms(value('exportAfreshMs'))}, from the store that redacted each frame once ${ms(value('exportFromStoreMs'))}: ${ratio(value('exportSpeedup'))} faster; the store's one-time redaction of the same frames (in idle slices, not on the ingest path): ${ms(value('storeRedactionOnceMs'))}`,
        `   delivery check (SDK validation again, after the list shows): ${ms(value('deliveryCheckMs'))}; fidelity report: ${ms(value('reportMs'))}`,
        `   replay of the same frames as a recording, instant mode: ${ms(value('replayInstantMs'))}`,
        `   ingest of ${count(context.options.chunks)} chunks through AcpConnection: frames kept ${ms(value('ingestRecordingOnMs'))}, not kept ${ms(value('ingestRecordingOffMs'))}: ${ratio(value('ingestRecordingRatio'))} (goal <= 1.05x)`,
      ],
    };
  },
};
