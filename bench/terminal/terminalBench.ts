/**
 * Terminal benchmarks (figures, never pass/fail):
 *
 *   1. Output capture throughput: a command's output through Tandem's TerminalService (the
 *      byte-bounded agent buffer, UTF-8 decoding, the display model and the batched panel feed)
 *      in MB/s, against `cat` of the same file to /dev/null (the pipe-free floor), as a ratio.
 *   2. Peak memory of this process while a command prints 100 MB with a 64 KB output limit.
 *
 * Alone: `npm run bench -- terminal`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TerminalFeed } from '../../src/terminals/panel/terminalFeed';
import { TerminalDisplays } from '../../src/terminals/terminalDisplays';
import { TerminalService } from '../../src/terminals/terminalService';
import { silentLogger } from '../../src/util/logger';
import { distribution, pairedRatios, prefixed, single, type Bench, type Figures } from '../shared/figures';
import { ms, ratio, table } from '../shared/report';
import { fullGc, WARMUP_ROUNDS } from '../shared/resources';
import { median, round } from '../shared/stats';
import { acpTerminalPort } from '../../src/workspace/acpV1Ports';

const MB = 1024 * 1024;
const LIMIT = 64 * 1024;
/** What the memory figure's command prints, far over the limit. */
const MEMORY_TEST_BYTES = 100 * MB;
const NEVER_ABORTED = new AbortController().signal;

/** A service with the display model and the panel feed attached, as a session has them. */
function hostPath(cwd: string) {
  const displays = new TerminalDisplays();
  let posted = 0;
  const feed = new TerminalFeed(displays, (_, output) => {
    for (const chunk of output) posted += chunk.data.length;
  });
  const service = new TerminalService({ cwd, roots: () => [cwd], displays, logger: silentLogger });
  return {
    service,
    posted: () => posted,
    dispose: () => {
      service.dispose();
      feed.dispose();
      displays.dispose();
    },
  };
}

async function throughTandem(cwd: string, command: string, args: string[]): Promise<number> {
  const host = hostPath(cwd);
  try {
    const start = performance.now();
    // As an agent reaches it: terminal/* through the ACP v1 adapter.
    const port = acpTerminalPort(host.service);
    const { terminalId } = await port.create({ sessionId: 'bench', command, args, outputByteLimit: LIMIT });
    await port.waitForExit({ sessionId: 'bench', terminalId }, NEVER_ABORTED);
    return performance.now() - start;
  } finally {
    host.dispose();
  }
}

function throughCat(file: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'cat "$1" > /dev/null', 'cat', file], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - start));
  });
}

/** The floor for any host that reads a pipe: Node reading the same bytes and keeping nothing. */
function throughNodePipe(file: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('cat', [file], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.on('error', reject);
    child.stdout.on('data', () => undefined);
    child.on('close', () => resolve(performance.now() - start));
  });
}

interface MemoryPeak {
  peakRssMB: number;
  /** Growth that stays after the command and a garbage collection: what the host keeps. */
  retainedMB: number;
  rssMB: number;
  heapMB: number;
  externalMB: number;
}

/** Peak growth over the baseline, sampled every 5 ms while `run` goes. */
/** Buffers are freed by finalizers after a collection: collect, let them run, collect again. */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const collectGarbage = fullGc() ?? (() => undefined);
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 100));
  collectGarbage();
  return process.memoryUsage();
}

async function peakDuring(run: () => Promise<unknown>): Promise<MemoryPeak> {
  // Settled like the end state, so what earlier sections left for finalizers is not counted as freed here.
  const base = await settledMemory();
  const peak = { absoluteRss: 0, rss: 0, heap: 0, external: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    peak.absoluteRss = Math.max(peak.absoluteRss, now.rss);
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.heap = Math.max(peak.heap, now.heapUsed - base.heapUsed);
    peak.external = Math.max(peak.external, now.external + now.arrayBuffers - base.external - base.arrayBuffers);
  };
  const timer = setInterval(sample, 5);
  try {
    await run();
  } finally {
    clearInterval(timer);
    sample();
  }
  const after = await settledMemory();
  const retained = after.heapUsed + after.external + after.arrayBuffers - base.heapUsed - base.external - base.arrayBuffers;
  return { retainedMB: round(retained / MB, 1), peakRssMB: round(peak.absoluteRss / MB, 1), rssMB: round(peak.rss / MB, 1), heapMB: round(peak.heap / MB, 1), externalMB: round(peak.external / MB, 1) };
}

/** Capture vs cat vs a bare Node pipe reader on the same file; the first round warms the page cache and the JIT; ratios are per round. */
async function throughput(scratch: string, sizeMB: number, runs: number): Promise<Figures> {
  // Printable lines, like real command output (colours included), not a run of one byte.
  const line = 'src/terminals/outputBuffer.ts:42: \u001b[32mok\u001b[0m keeps the newest bytes within the limit\n';
  const file = path.join(scratch, 'output.txt');
  writeFileSync(file, line.repeat(Math.ceil((sizeMB * MB) / Buffer.byteLength(line))).slice(0, sizeMB * MB));
  const paths = {
    tandem: () => throughTandem(scratch, 'cat', [file]),
    cat: () => throughCat(file),
    pipe: () => throughNodePipe(file),
  };
  const samples: Record<keyof typeof paths, number[]> = { tandem: [], cat: [], pipe: [] };
  const names = Object.keys(paths) as (keyof typeof paths)[];
  for (let run = 0; run < runs + WARMUP_ROUNDS; run++) {
    // Every other round in the opposite order, so page cache and JIT drift hit each path alike.
    for (const name of run % 2 === 0 ? names : [...names].reverse()) {
      const elapsed = await paths[name]();
      if (run >= WARMUP_ROUNDS) samples[name].push(elapsed);
    }
  }
  const { tandem: tandemMs, cat: catMs, pipe: pipeMs } = samples;
  const mbps = (samples: number[]) => single(sizeMB / (median(samples) / 1000), 'MB/s');
  return {
    captureMs: distribution(tandemMs, 'ms'),
    catMs: distribution(catMs, 'ms'),
    nodePipeMs: distribution(pipeMs, 'ms'),
    captureMBps: mbps(tandemMs),
    catMBps: mbps(catMs),
    nodePipeMBps: mbps(pipeMs),
    vsCat: pairedRatios(tandemMs, catMs),
    nodePipeVsCat: pairedRatios(pipeMs, catMs),
    vsNodePipe: pairedRatios(tandemMs, pipeMs),
  };
}

function memoryFigures(memory: MemoryPeak): Figures {
  return {
    'memory.peakRssMB': single(memory.peakRssMB, 'MB'),
    'memory.rssGrowthMB': single(memory.rssMB, 'MB'),
    'memory.heapGrowthMB': single(memory.heapMB, 'MB'),
    'memory.bufferGrowthMB': single(memory.externalMB, 'MB'),
    'memory.retainedMB': single(memory.retainedMB, 'MB'),
  };
}

function terminalLines(figures: Figures, sizeMB: number, runs: number): string[] {
  const value = (key: string) => figures[key]?.value ?? Number.NaN;
  const row = (label: string, key: string, vsCat: string) => [label, ms(value(`${key}Ms`)), value(`${key}MBps`).toFixed(0), vsCat];
  const megabytes = (key: string) => `${value(`memory.${key}`)} MB`;
  return [
    `\nTerminal output capture (${sizeMB} MB file, ${LIMIT / 1024} KB output limit, median of ${runs} runs)\n`,
    table([{ title: 'path' }, { title: 'median', align: 'right' }, { title: 'MB/s', align: 'right' }, { title: 'vs cat', align: 'right' }], [
      row('cat file > /dev/null', 'cat', 'baseline'),
      row('cat file | Node reads the pipe, keeps nothing', 'nodePipe', ratio(value('nodePipeVsCat'))),
      row('terminal/create: cat file (TerminalService + displays + panel feed)', 'capture', ratio(value('vsCat'))),
    ]),
    `   capture vs the Node pipe reader, per round: ${ratio(value('vsNodePipe'))} median, ${ratio(figures.vsNodePipe?.min ?? Number.NaN)}..${ratio(figures.vsNodePipe?.max ?? Number.NaN)}; rounds alternate the order of the three paths.`,
    `\nPeak memory growth of the host while a command prints ${MEMORY_TEST_BYTES / MB} MB (${LIMIT / 1024} KB limit)\n`,
    table([{ title: 'measure' }, { title: 'growth', align: 'right' }], [
      ['RSS (peak of the whole process)', megabytes('peakRssMB')],
      ['RSS growth', megabytes('rssGrowthMB')],
      ['JS heap used', megabytes('heapGrowthMB')],
      ['Buffers (external + array buffers)', megabytes('bufferGrowthMB')],
      ['kept after the command (heap + buffers, after GC)', megabytes('retainedMB')],
    ]),
  ];
}

export const terminalBench: Bench = {
  name: 'terminal',
  title: 'Terminals',
  async run({ options, progress }) {
    const runs = options.quick ? 3 : 7;
    const sizeMB = options.quick ? 32 : 128;
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-terminals-'));
    try {
      progress(`terminal: peak memory while a command prints ${MEMORY_TEST_BYTES / MB} MB`);
      // Memory first, before the throughput file and runs grow the process.
      const memory = await peakDuring(() => throughTandem(scratch, 'sh', ['-c', `head -c ${MEMORY_TEST_BYTES} /dev/zero | tr '\\0' x`]));
      progress(`terminal: capture of a ${sizeMB} MB file, ${WARMUP_ROUNDS} warm-up + ${runs} rounds`);
      const figures = { ...await throughput(scratch, sizeMB, runs), ...memoryFigures(memory) };
      return { section: 'terminal', figures: prefixed('terminal', figures), lines: terminalLines(figures, sizeMB, runs) };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
