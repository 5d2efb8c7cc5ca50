/**
 * `node --import tsx bench/profileExtHost.ts [--chars=N] [--turns=N] [--top=N] [--no-profile] [--strace]`:
 * where code-server's extension host spends its time over flood turns of the streaming bench (the
 * packaged extension, the real Claude adapter on the scripted model server). The host's inspector
 * is opened with SIGUSR1 on Node's default port (code-server does not take --inspect-extensions).
 * Each of --turns flood turns (default 1, each in a new tab) prints the host's CPU time per streamed
 * chunk; the last one is profiled: top self and total time by function, self time by script, the
 * host's bytes read and written and the messages the panel got. The .cpuprofile goes to
 * test-results/ (open it in Chromium's DevTools). --strace instead counts the host's reads and
 * writes by descriptor over one turn. Needs dist/tandem.vsix; readable names need an unminified
 * build packaged (`node scripts/build.mjs && npx vsce package --no-dependencies
 * --allow-missing-repository -o dist/tandem.vsix`). A heavy run: hold the shared lock.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/support/code-server';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import { codeServerProcesses } from './shared/processCpu';
import { openCodeServerStreaming } from './streaming/codeServer';
import { openRawAgent, type Pace } from './streaming/rawAgent';
import { benchMarkdown, CHUNK, END_MARKER } from './shared/streamedAnswer';
import { count } from './shared/report';

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

interface Socket {
  on(event: 'message', listener: (data: Buffer) => void): void;
  once(event: 'open' | 'error', listener: (error?: Error) => void): void;
  send(data: string): void;
  close(): void;
}

/** playwright-core ships the `ws` client; the bench needs no package of its own for it. */
const { ws: WebSocketClient } = createRequire(import.meta.url)('playwright-core/lib/utilsBundle') as { ws: new (url: string) => Socket };

const INSPECTOR_PORT = 9229;

/** Bytes a process has read and written so far, on every descriptor. */
function processIo(pid: number): { rchar: number; wchar: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? Number.NaN);
  return { rchar: field('rchar'), wchar: field('wchar') };
}

/**
 * With --strace: the host's reads and writes over the turn, by descriptor (what it points at),
 * from strace attached to every thread. strace slows the host down: a separate run from the profile.
 */
async function traceIo(pid: number, run: () => Promise<unknown>): Promise<string[]> {
  const out = join(REPO_ROOT, 'test-results', `ext-host-${Date.now()}.strace`);
  const tracer = spawn('strace', ['-f', '-qq', '-s', '0', '-e', 'trace=read,readv,write,writev,pwrite64', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await run();
  tracer.kill('SIGINT');
  await new Promise((resolve) => tracer.once('exit', resolve));
  const totals = new Map<string, { calls: number; bytes: number }>();
  for (const match of readFileSync(out, 'utf8').matchAll(/^\d+\s+(\w+)\((\d+),.*=\s+(\d+)/gm)) {
    const [, call, fd, bytes] = match as unknown as [string, string, string, string];
    let target = '?';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch { /* closed since */ }
    const key = `${call.replace(/v$/, '')} fd ${fd} (${target})`;
    const seen = totals.get(key) ?? { calls: 0, bytes: 0 };
    seen.calls++;
    seen.bytes += Number(bytes);
    totals.set(key, seen);
  }
  return [...totals].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 15).map(([key, { calls, bytes }]) => `${count(bytes).padStart(12)} bytes ${String(calls).padStart(7)} calls  ${key}`);
}

/** Run in the panel's frame: counts the host's messages by type, with their size as JSON. */
function countMessages(): void {
  const counts: Record<string, { count: number; bytes: number }> = {};
  (window as unknown as { __messages: typeof counts }).__messages = counts;
  window.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
    const type = String(event.data?.type ?? '?');
    const seen = counts[type] ?? { count: 0, bytes: 0 };
    seen.count++;
    seen.bytes += JSON.stringify(event.data).length;
    counts[type] = seen;
  });
}

/** Opens the inspector of `pid` (SIGUSR1) and waits for it to list its target. */
async function openInspector(pid: number): Promise<void> {
  process.kill(pid, 'SIGUSR1');
  for (let tries = 0; tries < 50; tries++) {
    try {
      await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`the extension host (pid ${pid}) opened no inspector on port ${INSPECTOR_PORT}`);
}

/** A Chrome DevTools Protocol session with one inspector target. */
async function connect(port: number): Promise<{ send<T>(method: string, params?: object): Promise<T>; close(): void }> {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocketClient(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id as number);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  return {
    send: <T>(method: string, params: object = {}) => new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    }),
    close: () => socket.close(),
  };
}

const frameKey = ({ functionName, url, lineNumber, columnNumber }: CallFrame) =>
  `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}:${columnNumber + 1}`;

/** Self and total microseconds per function; total counts a sample once per function however deep it recurses. */
function summarize(profile: CpuProfile): { self: Map<string, number>; total: Map<string, number>; byScript: Map<string, number>; sampledUs: number } {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byScript = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let sampledUs = 0;
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index + 1] ?? 0;
    const leaf = byId.get(id);
    if (!leaf || us <= 0 || leaf.callFrame.functionName === '(idle)') return;
    sampledUs += us;
    add(self, frameKey(leaf.callFrame), us);
    add(byScript, leaf.callFrame.url.split('/').slice(-3).join('/') || `(${leaf.callFrame.functionName})`, us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = frameKey((byId.get(at) as ProfileNode).callFrame);
      if (!seen.has(key)) add(total, key, us);
      seen.add(key);
    }
  });
  return { self, total, byScript, sampledUs };
}

function top(map: Map<string, number>, count: number, chunks: number): string[] {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([key, us]) => `${(us / 1000).toFixed(1).padStart(9)} ms ${(us / chunks).toFixed(2).padStart(7)} us/chunk  ${key}`);
}

function option(name: string, fallback: number): number {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return given ? Number(given.slice(name.length + 3)) : fallback;
}

function printProfile(profile: CpuProfile, chunks: number): void {
  const out = join(REPO_ROOT, 'test-results', `ext-host-${Date.now()}.cpuprofile`);
  mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true });
  writeFileSync(out, JSON.stringify(profile));
  const { self, total, byScript, sampledUs } = summarize(profile);
  const shown = option('top', 30);
  console.log(`main thread sampled ${(sampledUs / 1000).toFixed(0)} ms (not idle); profile: ${out}`);
  console.log('\nself time by script:');
  for (const line of top(byScript, 12, chunks)) console.log(line);
  console.log('\ntop self time:');
  for (const line of top(self, shown, chunks)) console.log(line);
  console.log('\ntop total time:');
  for (const line of top(total, shown, chunks)) console.log(line);
}

const FLOOD: Pace = { key: 'flood', label: 'flood' };

async function main(): Promise<void> {
  const text = benchMarkdown(option('chars', 50_000));
  const model = await startClaudeModelServer();
  const editor = await openCodeServerStreaming(model);
  const raw = await openRawAgent(model);
  try {
    await editor.turn(benchMarkdown(20_000), FLOOD, END_MARKER);
    // The raw client counts the chunks the adapter sends for this text (the panel shows them, it does not count them).
    const { chunks } = await raw.turn(text, FLOOD);
    const host = codeServerProcesses(editor.workbench.server.userDataDir).extensionHost;
    await openInspector(host);
    if (process.argv.includes('--strace')) {
      for (const line of await traceIo(host, () => editor.turn(text, FLOOD, END_MARKER))) console.log(line);
      return;
    }
    const inspector = await connect(INSPECTOR_PORT);
    const pid = (await inspector.send<{ result: { value: number } }>('Runtime.evaluate', { expression: 'process.pid', returnByValue: true })).result.value;
    if (pid !== host) throw new Error(`the inspector on port ${INSPECTOR_PORT} is process ${pid}, not the extension host ${host}`);
    const cpu = async () => (await inspector.send<{ result: { value: number } }>('Runtime.evaluate', { expression: '(() => { const u = process.cpuUsage(); return u.user + u.system; })()', returnByValue: true })).result.value;
    const perChunk = (us: number) => `${(us / 1000).toFixed(0)} ms = ${(us / chunks).toFixed(1)} us/chunk`;
    console.log(`${text.length} characters, ${chunks} agent_message_chunks (${CHUNK}-character deltas) per turn`);
    // Turns before the profiled one, each a new tab: a figure that grows turn by turn points at state kept across them.
    for (let index = 1; index < option('turns', 1); index++) {
      const before = await cpu();
      const turn = await editor.turn(text, FLOOD, END_MARKER);
      console.log(`turn ${index}: Tandem ${turn.ms.toFixed(0)} ms, extension host CPU ${perChunk((await cpu()) - before)}`);
    }
    const profiling = !process.argv.includes('--no-profile');
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
    await editor.workbench.panel.evaluate(countMessages);
    const ioBefore = processIo(host);
    const before = await cpu();
    if (profiling) await inspector.send('Profiler.start');
    const turn = await editor.turn(text, FLOOD, END_MARKER);
    const profile = profiling ? (await inspector.send<{ profile: CpuProfile }>('Profiler.stop')).profile : null;
    const cpuUs = (await cpu()) - before;
    const ioAfter = processIo(host);
    const messages = await editor.workbench.panel.evaluate(() => (window as unknown as { __messages: Record<string, { count: number; bytes: number }> }).__messages);
    inspector.close();
    console.log(`last turn: Tandem ${turn.ms.toFixed(0)} ms (first token ${turn.firstTokenMs.toFixed(0)} ms), extension host CPU (process.cpuUsage, every thread) ${perChunk(cpuUs)}`);
    console.log(`extension host I/O over the turn: wrote ${count(ioAfter.wchar - ioBefore.wchar)} bytes, read ${count(ioAfter.rchar - ioBefore.rchar)} bytes (/proc/<pid>/io, every fd)`);
    console.log(`messages the panel received: ${Object.entries(messages).map(([type, { count: n, bytes }]) => `${type} ${n} (${count(bytes)} bytes of JSON)`).join(', ')}`);
    if (profile) printProfile(profile, chunks);
  } finally {
    await raw.close();
    await editor.close();
    await model.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
