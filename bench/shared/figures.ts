/**
 * The one result shape every bench returns. Keys are stable and dotted, starting with the
 * section (`review.vsGitNoSpawn`), so a figure keeps its name when benches are added or skipped.
 */
import type { WorkbenchBrowser } from '../../test/support/workbench';
import type { HandshakeTarget } from './agentLaunch';
import type { Cleanup } from './resources';
import { median, round, summarize } from './stats';

export type Unit = 'ms' | 'x' | 'bytes' | 'MB' | 'MB/s' | 'per s' | 'count' | 'flag';

/** A measured value; for a distribution `value` is the median and the spread comes with it. */
export interface Figure {
  value: number;
  unit: Unit;
  runs?: number;
  min?: number;
  median?: number;
  max?: number;
}

export type Figures = Record<string, Figure>;

export interface BenchResult {
  section: string;
  figures: Figures;
  /** The human-readable report of the section, printed as it is. */
  lines: string[];
}

export interface BenchOptions {
  quick: boolean;
  runs: number;
  realRuns: number;
  throughputRuns: number;
  chunks: number;
}

/** What benches share: one cleanup, one scratch directory, and resources started on first use. */
export interface BenchContext {
  options: BenchOptions;
  cleanup: Cleanup;
  progress(line: string): void;
  scratchDir(name: string): string;
  /** The scripted agent compiled once to plain .mjs, for every bench that spawns it. */
  scriptedAgent(): Promise<HandshakeTarget>;
  /** One Chromium for every panel bench, closed by the cleanup. */
  browser(): Promise<WorkbenchBrowser>;
}

export interface Bench {
  /** Section name: the first part of every figure key and the name to select it on the command line. */
  name: string;
  title: string;
  run(context: BenchContext): Promise<BenchResult>;
}

/**
 * The figures followed from run to run, under names that never change: each section emits its
 * own under these exact keys, and the `BENCH_JSON` line lists every one of them.
 */
export const STABLE_KEYS = [
  'hostIngest.inProcessVsParse',
  'hostIngest.pipeVsRaw',
  'streaming.flood.codeServerVsRaw',
  'streaming.flood.maxFrameGapMs',
  'streaming.paced.vsRaw',
  'bigThread.appendP95Ms',
  'panel.readyMs',
  'bundles.webviewBytes',
  'bundles.extensionBytes',
  'terminal.vsNodePipe',
  'review.vsGitNoSpawn',
  'fsRead.vsEcho',
  'review.editorUndoAllMs',
] as const;

export type StableKey = (typeof STABLE_KEYS)[number];

/** Every stable key with its figure, or null when its section did not run or could not measure it. */
export function stableFigures(figures: Figures): Record<StableKey, Figure | null> {
  return Object.fromEntries(STABLE_KEYS.map((key) => [key, figures[key] ?? null])) as Record<StableKey, Figure | null>;
}

/** Enough digits for sub-millisecond timings while keeping the JSON line readable. */
const DIGITS = 3;

export function single(value: number, unit: Unit): Figure {
  return { value: round(value, DIGITS), unit };
}

export function distribution(samples: readonly number[], unit: Unit): Figure {
  const summary = summarize(samples);
  return {
    value: round(summary.median, DIGITS),
    unit,
    runs: summary.runs,
    min: round(summary.min, DIGITS),
    median: round(summary.median, DIGITS),
    max: round(summary.max, DIGITS),
  };
}

/** How many times slower the first path is than the second: the ratio of their medians. */
export function slowdown(samples: readonly number[], baseline: readonly number[]): Figure {
  return single(median(samples) / median(baseline), 'x');
}

/**
 * Per-run ratios of two paths measured side by side in the same rounds (`samples[i]` against
 * `baseline[i]`), as a distribution: the spread shows how much one slow round moved the figure.
 */
export function pairedRatios(samples: readonly number[], baseline: readonly number[]): Figure {
  if (samples.length !== baseline.length || samples.length === 0) throw new Error('paired ratios need the same non-zero number of runs on both sides');
  return distribution(samples.map((sample, index) => sample / (baseline[index] as number)), 'x');
}

/** Prefixes every key with `prefix.`, for figures measured the same way on several subjects. */
export function prefixed(prefix: string, figures: Figures): Figures {
  return Object.fromEntries(Object.entries(figures).map(([key, figure]) => [`${prefix}.${key}`, figure]));
}
