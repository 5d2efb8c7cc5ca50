/**
 * Terminal benchmarks (figures, never pass/fail):
 *
 *   1. Output capture throughput: a command's output through Tandem's TerminalService (the
 *      byte-bounded agent buffer, UTF-8 decoding, the display model and the batched panel feed)
 *      in MB/s, against `cat` of the same file to /dev/null (the pipe-free floor), as a ratio.
 *   2. Peak memory of this process while a command prints 100 MB with a 64 KB output limit.
 *
 * Standalone: `node --import tsx bench/terminals.ts [--quick]`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TerminalFeed } from '../src/panel/terminalFeed';
import { TerminalDisplays } from '../src/terminals/terminalDisplays';
import { TerminalService } from '../src/terminals/terminalService';
import { silentLogger } from '../src/util/logger';
import { ratio, table } from './report';
import { median, round } from './stats';

const MB = 1024 * 1024;
const LIMIT = 64 * 1024;
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
    const { terminalId } = await host.service.create({ sessionId: 'bench', command, args, outputByteLimit: LIMIT });
    await host.service.waitForExit({ sessionId: 'bench', terminalId }, NEVER_ABORTED);
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

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
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
async function peakDuring(run: () => Promise<unknown>): Promise<MemoryPeak> {
  collectGarbage();
  const base = process.memoryUsage();
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
  // Buffers are freed by finalizers after a collection: collect, let them run, collect again.
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 100));
  collectGarbage();
  const after = process.memoryUsage();
  const retained = after.heapUsed + after.external + after.arrayBuffers - base.heapUsed - base.external - base.arrayBuffers;
  return { retainedMB: round(retained / MB, 1), peakRssMB: round(peak.absoluteRss / MB, 1), rssMB: round(peak.rss / MB, 1), heapMB: round(peak.heap / MB, 1), externalMB: round(peak.external / MB, 1) };
}

export async function runTerminalBench(options: { quick: boolean }): Promise<Record<string, number>> {
  const runs = options.quick ? 3 : 7;
  const sizeMB = options.quick ? 32 : 128;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-terminals-'));
  try {
    // Memory first, before the throughput file and runs grow the process.
    const memory = await peakDuring(() => throughTandem(scratch, 'sh', ['-c', `head -c ${100 * MB} /dev/zero | tr '\\0' x`]));
    // Printable lines, like real command output (colours included), not a run of one byte.
    const line = 'src/terminals/outputBuffer.ts:42: \u001b[32mok\u001b[0m keeps the newest bytes within the limit\n';
    const file = path.join(scratch, 'output.txt');
    writeFileSync(file, line.repeat(Math.ceil((sizeMB * MB) / Buffer.byteLength(line))).slice(0, sizeMB * MB));
    const tandemMs: number[] = [];
    const catMs: number[] = [];
    const pipeMs: number[] = [];
    for (let run = 0; run < runs + 1; run++) {
      const tandem = await throughTandem(scratch, 'cat', [file]);
      const cat = await throughCat(file);
      const pipe = await throughNodePipe(file);
      // The first round warms the page cache and the JIT.
      if (run === 0) continue;
      tandemMs.push(tandem);
      catMs.push(cat);
      pipeMs.push(pipe);
    }
    const tandemMBps = sizeMB / (median(tandemMs) / 1000);
    const catMBps = sizeMB / (median(catMs) / 1000);
    const pipeMBps = sizeMB / (median(pipeMs) / 1000);

    const figures = {
      terminalCaptureMBps: round(tandemMBps, 1),
      catToDevNullMBps: round(catMBps, 1),
      nodePipeReadMBps: round(pipeMBps, 1),
      captureSlowdownVsCat: round(median(tandemMs) / median(catMs), 2),
      captureSlowdownVsNodePipe: round(median(tandemMs) / median(pipeMs), 2),
      peakRssMB100: memory.peakRssMB,
      peakRssGrowthMB100: memory.rssMB,
      peakHeapGrowthMB100: memory.heapMB,
      peakBufferGrowthMB100: memory.externalMB,
      retainedAfterMB100: memory.retainedMB,
    };
    console.log(`\nTerminal output capture (${sizeMB} MB file, ${LIMIT / 1024} KB output limit, median of ${runs} runs)\n`);
    console.log(table([{ title: 'path' }, { title: 'median', align: 'right' }, { title: 'MB/s', align: 'right' }, { title: 'vs cat', align: 'right' }], [
      ['cat file > /dev/null', `${round(median(catMs), 1)} ms`, catMBps.toFixed(0), ratio(1)],
      ['cat file | Node reads the pipe, keeps nothing', `${round(median(pipeMs), 1)} ms`, pipeMBps.toFixed(0), ratio(median(pipeMs) / median(catMs))],
      ['terminal/create: cat file (TerminalService + displays + panel feed)', `${round(median(tandemMs), 1)} ms`, tandemMBps.toFixed(0), ratio(figures.captureSlowdownVsCat)],
    ]));
    console.log('\nPeak memory growth of the host while a command prints 100 MB (64 KB limit)\n');
    console.log(table([{ title: 'measure' }, { title: 'growth', align: 'right' }], [
      ['RSS (peak of the whole process)', `${memory.peakRssMB} MB`],
      ['RSS growth', `${memory.rssMB} MB`],
      ['JS heap used', `${memory.heapMB} MB`],
      ['Buffers (external + array buffers)', `${memory.externalMB} MB`],
      ['kept after the command (heap + buffers, after GC)', `${memory.retainedMB} MB`],
    ]));
    return figures;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.basename(process.argv[1]).startsWith('terminals.')) {
  runTerminalBench({ quick: process.argv.includes('--quick') }).then((figures) => console.log(`\nBENCH_JSON ${JSON.stringify(figures)}`));
}
