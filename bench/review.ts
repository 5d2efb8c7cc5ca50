/**
 * Review ledger figures: how fast hunks are computed and acted on for a big file, against
 * `git diff --no-index` on the same two files, and how much memory the ledger holds.
 *
 *   node --import tsx bench/review.ts [--quick]                  (heap figure approximate)
 *   node --expose-gc --import tsx bench/review.ts [--quick]      (heap figure after full GCs)
 *
 * `runReviewBench` is what bench/run.ts calls; progress goes to stderr, the table to stdout.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { diffLines } from 'diff';
import { ChangeLedger } from '../src/review/changeLedger';
import { count, ms, ratio, table } from './report';
import { median, round } from './stats';

const BIG_LINES = 20_000;
const BIG_CHANGES = 200;
const MEMORY_FILES = 100;
const MEMORY_LINES = 2_000;
const MEMORY_CHANGES = 5;
const PATH = '/workspace/src/big.ts';

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** A small seeded generator, so every run measures the same texts. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
}

/** Code-like text: mostly unique lines, with the repeated braces, returns and blank lines of real code. */
function codeLines(count: number, tag: string): string[] {
  const lines: string[] = [];
  for (let i = 0; lines.length < count; i++) {
    lines.push(
      `export function ${tag}${i}(input: number, options: Options): number {\n`,
      `  const scaled${i} = input * ${i % 97} + options.offset;\n`,
      `  if (scaled${i} > options.limit) {\n`,
      '    return options.limit;\n',
      '  }\n',
      '  return scaled' + i + ';\n',
      '}\n',
      '\n',
    );
  }
  return lines.slice(0, count);
}

/** `changes` scattered edits: replaced lines, inserted runs, deleted runs. */
function scatter(lines: readonly string[], changes: number, random: () => number): string[] {
  const out = [...lines];
  for (let k = 0; k < changes; k++) {
    const at = Math.floor(random() * out.length);
    const kind = random();
    if (kind < 0.5) out[at] = `  // changed by the agent (${k})\n`;
    else if (kind < 0.8) out.splice(at, 0, `  logger.debug('step ${k}');\n`, `  metrics.count(${k});\n`);
    else out.splice(at, 1 + Math.floor(random() * 2));
  }
  return out;
}

function time(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function medianOf(runs: number, warmup: number, measure: () => number): number {
  const samples: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const sample = measure();
    if (i >= warmup) samples.push(sample);
  }
  return median(samples);
}

/** A full GC, from --expose-gc or switched on at run time; null when neither works. */
function fullGc(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    return null;
  }
}

/** JS heap plus ArrayBuffer memory (the ledger's line indexes are typed arrays, stored outside the heap). */
function memoryInUse(gc: (() => void) | null): number {
  if (gc) {
    gc();
    gc();
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Like report.ms, with enough digits for sub-millisecond figures. */
function fineMs(value: number): string {
  return value < 1 ? `${value.toFixed(3)} ms` : ms(value);
}

interface GitFigures {
  ms: number;
  spawnMs: number;
  hunks: number;
}

function gitDiff(base: string, current: string, runs: number): GitFigures | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-review-bench-'));
  try {
    writeFileSync(path.join(dir, 'base.ts'), base);
    writeFileSync(path.join(dir, 'current.ts'), current);
    const args = ['-c', 'core.autocrlf=false', 'diff', '--no-index', '--no-color', '--no-ext-diff', '-U0', 'base.ts', 'current.ts'];
    const probe = spawnSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (probe.error || probe.status !== 1) return null; // 1 = "the files differ"
    const hunks = probe.stdout.split('\n').filter((line) => line.startsWith('@@ ')).length;
    const diffMs = medianOf(runs, 1, () => time(() => spawnSync('git', args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 })));
    const spawnMs = medianOf(runs, 1, () => time(() => spawnSync('git', ['--version'])));
    return { ms: diffMs, spawnMs, hunks };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A ledger holding `base -> current` for the big file, and a hunk in the middle of it. */
function bigLedger(base: string, current: string): { ledger: ChangeLedger; hunkId: string } {
  const ledger = new ChangeLedger();
  ledger.record(PATH, { before: base, after: current, origin: 'editor' });
  const hunks = ledger.file(PATH)?.hunks ?? [];
  const hunk = hunks[Math.floor(hunks.length / 2)];
  if (!hunk) throw new Error('the big file produced no hunks');
  return { ledger, hunkId: hunk.id };
}

function measureMemory(gc: (() => void) | null): { bytes: number; textBytes: number } {
  const before = memoryInUse(gc);
  const ledger = new ChangeLedger();
  let textChars = 0;
  for (let f = 0; f < MEMORY_FILES; f++) {
    const random = seeded(1000 + f);
    // Built and dropped here, so after the GC only the ledger's references keep the texts alive.
    const base = codeLines(MEMORY_LINES, `file${f}_`).join('');
    const current = scatter(codeLines(MEMORY_LINES, `file${f}_`), MEMORY_CHANGES, random).join('');
    textChars += base.length + current.length;
    ledger.record(`/workspace/src/file${f}.ts`, { before: base, after: current, origin: 'editor' });
  }
  const bytes = memoryInUse(gc) - before;
  // Used after the measurement, so the ledger is surely alive during it.
  if (ledger.files().length !== MEMORY_FILES) throw new Error('memory bench: expected every file pending');
  // ASCII texts: V8 stores them one byte per character.
  return { bytes, textBytes: textChars };
}

export async function runReviewBench(options: { quick: boolean }): Promise<Record<string, number>> {
  const runs = options.quick ? 5 : 21;
  const random = seeded(42);
  const baseLines = codeLines(BIG_LINES, 'fn');
  const base = baseLines.join('');
  const current = scatter(baseLines, BIG_CHANGES, random).join('');

  progress(`review: hunks for a ${count(BIG_LINES)}-line file with ${BIG_CHANGES} scattered changes, ${runs} runs`);
  let hunkCount = 0;
  const hunksMs = medianOf(runs, 2, () => time(() => {
    hunkCount = bigLedger(base, current).ledger.file(PATH)?.hunks.length ?? 0;
  }));
  const jsdiffMs = medianOf(Math.min(runs, 7), 1, () => time(() => diffLines(base, current)));

  progress('review: git diff --no-index on the same pair');
  const git = gitDiff(base, current, runs);

  progress('review: keep, undo, a keystroke, redo');
  const keepMs = medianOf(runs, 2, () => {
    const { ledger, hunkId } = bigLedger(base, current);
    return time(() => ledger.keepHunk(PATH, hunkId));
  });
  const undoMs = medianOf(runs, 2, () => {
    const { ledger, hunkId } = bigLedger(base, current);
    return time(() => ledger.undoHunk(PATH, hunkId));
  });
  const redoMs = medianOf(runs, 2, () => {
    const { ledger, hunkId } = bigLedger(base, current);
    ledger.undoHunk(PATH, hunkId);
    return time(() => ledger.redoLastUndo());
  });
  const typedAt = current.indexOf('\n', Math.floor(current.length / 3));
  const typed = `${current.slice(0, typedAt)}x${current.slice(typedAt)}`;
  const keystrokeMs = medianOf(runs, 2, () => {
    const { ledger } = bigLedger(base, current);
    return time(() => ledger.updateCurrent(PATH, typed));
  });
  const viewMs = medianOf(runs, 2, () => {
    const { ledger } = bigLedger(base, current);
    return time(() => ledger.files());
  });

  progress(`review: memory for ${MEMORY_FILES} files of ${count(MEMORY_LINES)} lines with ${MEMORY_CHANGES} changes each`);
  const gc = fullGc();
  const memory = measureMemory(gc);

  const rows: string[][] = [
    [`hunks: record + view, ${count(BIG_LINES)} lines, ${BIG_CHANGES} scattered changes`, ms(hunksMs), `${count(hunkCount)} hunks`],
    ['  reference: jsdiff diffLines on the whole pair (Myers)', ms(jsdiffMs), ratio(jsdiffMs / hunksMs) + ' of ledger'],
    git
      ? ['  reference: git diff --no-index -U0 (spawn included)', ms(git.ms), `${count(git.hunks)} hunks; ledger/git ${ratio(hunksMs / git.ms)}`]
      : ['  reference: git diff --no-index', 'n/a', 'git not found'],
    ...(git ? [['  reference: spawning git --version', ms(git.spawnMs), 'process start-up alone']] : []),
    ['keep one hunk (middle of the file)', fineMs(keepMs), ''],
    ['undo one hunk (middle of the file)', fineMs(undoMs), 'returns the exact text to write'],
    ['redo that undo', fineMs(redoMs), ''],
    ['a keystroke elsewhere: updateCurrent', fineMs(keystrokeMs), 'other hunks kept as they are, not re-diffed'],
    ['files(): all hunk views of the big file', fineMs(viewMs), ''],
    [
      `memory: ${MEMORY_FILES} files x ${count(MEMORY_LINES)} lines, ${MEMORY_CHANGES} changes each`,
      `${(memory.bytes / 1024 ** 2).toFixed(1)} MiB`,
      `${gc ? 'heap + ArrayBuffer delta after full GCs' : 'approximate (no GC available)'}; texts alone ${(memory.textBytes / 1024 ** 2).toFixed(1)} MiB (base + current)`,
    ],
  ];
  process.stdout.write(`Review ledger (median of ${runs} runs${options.quick ? ', --quick' : ''})\n`);
  process.stdout.write(`${table([{ title: 'measure' }, { title: 'median', align: 'right' }, { title: 'note' }], rows)}\n`);

  return {
    bigFileLines: BIG_LINES,
    bigFileChanges: BIG_CHANGES,
    hunkCount,
    hunksMs: round(hunksMs, 3),
    jsdiffDiffLinesMs: round(jsdiffMs, 3),
    gitDiffMs: git ? round(git.ms, 3) : Number.NaN,
    gitSpawnMs: git ? round(git.spawnMs, 3) : Number.NaN,
    gitHunkCount: git ? git.hunks : Number.NaN,
    ratioToGit: git ? round(hunksMs / git.ms, 3) : Number.NaN,
    keepHunkMs: round(keepMs, 3),
    undoHunkMs: round(undoMs, 3),
    redoMs: round(redoMs, 3),
    keystrokeUpdateMs: round(keystrokeMs, 3),
    filesViewMs: round(viewMs, 3),
    memoryFiles: MEMORY_FILES,
    memoryBytes: memory.bytes,
    memoryTextBytes: memory.textBytes,
    memoryExact: gc ? 1 : 0,
  };
}

if (require.main === module) {
  runReviewBench({ quick: process.argv.includes('--quick') }).then(
    (figures) => process.stdout.write(`REVIEW_BENCH_JSON ${JSON.stringify(figures)}\n`),
    (error: unknown) => {
      process.stderr.write(`review bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
