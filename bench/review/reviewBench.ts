/**
 * Review ledger figures: how fast hunks are computed and acted on for a big file, against
 * `git diff --no-index` on the same two files, and how much memory the ledger holds.
 * Alone: `npm run bench -- review` (node runs with --expose-gc, so the memory figure follows full GCs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { diffLines } from 'diff';
import { ChangeLedger } from '../../src/review/changeLedger';
import { distribution, prefixed, single, slowdown, type Bench, type Figures } from '../shared/figures';
import { count, ms, ratio, table } from '../shared/report';
import { fullGc } from '../shared/resources';
import { median } from '../shared/stats';

const BIG_LINES = 20_000;
const BIG_CHANGES = 200;
const MEMORY_FILES = 100;
const MEMORY_LINES = 2_000;
const MEMORY_CHANGES = 5;
const PATH = '/workspace/src/big.ts';

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

function samplesOf(runs: number, warmup: number, measure: () => number): number[] {
  const samples: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const sample = measure();
    if (i >= warmup) samples.push(sample);
  }
  return samples;
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
  ms: number[];
  spawnMs: number[];
  /** git's hunks as `baseStart,baseCount,currentStart,currentCount`, 0-based like the ledger's. */
  hunks: string[];
}

/** A hunk as one comparable string, starts 0-based (git numbers a zero-length side by the line before it). */
function hunkKey(baseStart: number, baseCount: number, currentStart: number, currentCount: number): string {
  return `${baseStart},${baseCount},${currentStart},${currentCount}`;
}

function gitHunks(unifiedDiff: string): string[] {
  const side = (start: string, lineCount: string | undefined): [number, number] => {
    const lines = lineCount === undefined ? 1 : Number(lineCount);
    return [lines === 0 ? Number(start) : Number(start) - 1, lines];
  };
  return [...unifiedDiff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)].map((match) =>
    hunkKey(...side(match[1] as string, match[2]), ...side(match[3] as string, match[4])));
}

function ledgerHunks(base: string, current: string): string[] {
  const hunks = bigLedger(base, current).ledger.file(PATH)?.hunks ?? [];
  return hunks.map((hunk) => hunkKey(hunk.baseStart, hunk.baseLineCount, hunk.currentStart, hunk.currentLineCount));
}

function gitDiff(base: string, current: string, runs: number): GitFigures | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-review-bench-'));
  try {
    writeFileSync(path.join(dir, 'base.ts'), base);
    writeFileSync(path.join(dir, 'current.ts'), current);
    const args = ['-c', 'core.autocrlf=false', 'diff', '--no-index', '--no-color', '--no-ext-diff', '-U0', 'base.ts', 'current.ts'];
    const probe = spawnSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (probe.error || probe.status !== 1) return null; // 1 = "the files differ"
    const hunks = gitHunks(probe.stdout);
    const diffMs = samplesOf(runs, 1, () => time(() => spawnSync('git', args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 })));
    const spawnMs = samplesOf(runs, 1, () => time(() => spawnSync('git', ['--version'])));
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

/** The ledger's own operations on the big file, each on a fresh ledger (the first two runs are not counted). */
function ledgerTimings(base: string, current: string, runs: number): Figures {
  const onFreshLedger = (measure: (ledger: ChangeLedger, hunkId: string) => number) => samplesOf(runs, 2, () => {
    const { ledger, hunkId } = bigLedger(base, current);
    return measure(ledger, hunkId);
  });
  const typedAt = current.indexOf('\n', Math.floor(current.length / 3));
  const typed = `${current.slice(0, typedAt)}x${current.slice(typedAt)}`;
  return {
    keepHunkMs: distribution(onFreshLedger((ledger, hunkId) => time(() => ledger.keepHunk(PATH, hunkId))), 'ms'),
    undoHunkMs: distribution(onFreshLedger((ledger, hunkId) => time(() => ledger.undoHunk(PATH, hunkId))), 'ms'),
    redoMs: distribution(onFreshLedger((ledger, hunkId) => {
      ledger.undoHunk(PATH, hunkId);
      return time(() => ledger.redoLastUndo());
    }), 'ms'),
    keystrokeMs: distribution(onFreshLedger((ledger) => time(() => ledger.updateCurrent(PATH, typed))), 'ms'),
    filesViewMs: distribution(onFreshLedger((ledger) => time(() => ledger.files())), 'ms'),
  };
}

/** The ratios compare the same work only if both sides found the very same hunks: checked hunk by hunk. */
function gitComparison(hunksMs: number[], git: GitFigures | null, ledger: string[]): Figures {
  if (!git) return {};
  const sameHunks = git.hunks.length === ledger.length && git.hunks.every((hunk, index) => hunk === ledger[index]);
  if (!sameHunks) {
    const first = git.hunks.findIndex((hunk, index) => hunk !== ledger[index]);
    throw new Error(`git and the ledger found different hunks (${git.hunks.length} vs ${ledger.length}; first difference at #${first}: git ${git.hunks[first]}, ledger ${ledger[first]})`);
  }
  const figures: Figures = {
    gitDiffMs: distribution(git.ms, 'ms'),
    gitSpawnMs: distribution(git.spawnMs, 'ms'),
    gitHunkCount: single(git.hunks.length, 'count'),
    vsGit: slowdown(hunksMs, git.ms),
  };
  // git's diff work alone: its run minus the cost of starting any git process.
  const diffWorkMs = median(git.ms) - median(git.spawnMs);
  if (diffWorkMs > 0) figures.vsGitNoSpawn = single(median(hunksMs) / diffWorkMs, 'x');
  return figures;
}

function gitRows(figures: Figures): string[][] {
  const { gitDiffMs, gitSpawnMs, gitHunkCount, vsGit, vsGitNoSpawn } = figures;
  if (!gitDiffMs || !gitSpawnMs || !gitHunkCount || !vsGit) return [['  reference: git diff --no-index', 'n/a', 'git not found']];
  return [
    ['  reference: git diff --no-index -U0 (spawn included)', ms(gitDiffMs.value), `${count(gitHunkCount.value)} hunks, the same as the ledger's; ledger/git ${ratio(vsGit.value)}`],
    ['  reference: spawning git --version', ms(gitSpawnMs.value), 'process start-up alone'],
    ...(vsGitNoSpawn ? [['  reference: git diff minus that start-up', ms(gitDiffMs.value - gitSpawnMs.value), `ledger/git ${ratio(vsGitNoSpawn.value)}`]] : []),
  ];
}

function reviewTable(figures: Figures, memoryExact: boolean): string {
  const value = (key: string) => figures[key]?.value ?? Number.NaN;
  const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  const rows: string[][] = [
    [`hunks: record + view, ${count(BIG_LINES)} lines, ${BIG_CHANGES} scattered changes`, ms(value('hunksMs')), `${count(value('hunkCount'))} hunks`],
    ['  reference: jsdiff diffLines on the whole pair (Myers)', ms(value('jsdiffMs')), ratio(value('jsdiffMs') / value('hunksMs')) + ' of ledger'],
    ...gitRows(figures),
    ['keep one hunk (middle of the file)', fineMs(value('keepHunkMs')), ''],
    ['undo one hunk (middle of the file)', fineMs(value('undoHunkMs')), 'returns the exact text to write'],
    ['redo that undo', fineMs(value('redoMs')), ''],
    ['a keystroke elsewhere: updateCurrent', fineMs(value('keystrokeMs')), 'other hunks kept as they are, not re-diffed'],
    ['files(): all hunk views of the big file', fineMs(value('filesViewMs')), ''],
    [
      `memory: ${MEMORY_FILES} files x ${count(MEMORY_LINES)} lines, ${MEMORY_CHANGES} changes each`,
      mib(value('memoryBytes')),
      `${memoryExact ? 'heap + ArrayBuffer delta after full GCs' : 'approximate (no GC available)'}; texts alone ${mib(value('memoryTextBytes'))} (base + current)`,
    ],
  ];
  return table([{ title: 'measure' }, { title: 'median', align: 'right' }, { title: 'note' }], rows);
}

export const reviewBench: Bench = {
  name: 'review',
  title: 'Review: change ledger',
  async run({ options, progress }) {
    const runs = options.quick ? 5 : 21;
    const random = seeded(42);
    const baseLines = codeLines(BIG_LINES, 'fn');
    const base = baseLines.join('');
    const current = scatter(baseLines, BIG_CHANGES, random).join('');

    progress(`review: hunks for a ${count(BIG_LINES)}-line file with ${BIG_CHANGES} scattered changes, ${runs} runs`);
    let hunkCount = 0;
    const hunksMs = samplesOf(runs, 2, () => time(() => {
      hunkCount = bigLedger(base, current).ledger.file(PATH)?.hunks.length ?? 0;
    }));
    const jsdiffMs = samplesOf(Math.min(runs, 7), 1, () => time(() => diffLines(base, current)));

    progress('review: git diff --no-index on the same pair');
    const git = gitDiff(base, current, runs);

    progress('review: keep, undo, a keystroke, redo');
    const ledger = ledgerTimings(base, current, runs);

    progress(`review: memory for ${MEMORY_FILES} files of ${count(MEMORY_LINES)} lines with ${MEMORY_CHANGES} changes each`);
    const gc = fullGc();
    const memory = measureMemory(gc);

    const figures: Figures = {
      hunksMs: distribution(hunksMs, 'ms'),
      hunkCount: single(hunkCount, 'count'),
      jsdiffMs: distribution(jsdiffMs, 'ms'),
      ...gitComparison(hunksMs, git, ledgerHunks(base, current)),
      ...ledger,
      memoryBytes: single(memory.bytes, 'bytes'),
      memoryTextBytes: single(memory.textBytes, 'bytes'),
      memoryAfterFullGc: single(Number(gc !== null), 'flag'),
    };
    return {
      section: 'review',
      figures: prefixed('review', figures),
      lines: [`Review ledger (median of ${runs} runs${options.quick ? ', --quick' : ''})`, reviewTable(figures, gc !== null)],
    };
  },
};
