/**
 * `npm run bench [-- options] [section ...]`: prints figures, never pass/fail.
 *
 * Sections, run in this order (all of them unless some are named):
 *   handshake    spawn -> initialize -> session/new, SessionController vs a raw NDJSON client, and the first
 *                token after Enter, on the scripted agent and (without --quick) each real adapter that runs
 *                here on its scripted model server (bench/handshake/agents.ts HANDSHAKE_AGENTS)
 *   hostIngest   agent_message_chunk floods through each stage of the host path, in memory and over a pipe
 *   review       change ledger hunks, keep/undo/redo and memory, against git diff --no-index
 *   checkpoints  restore of a checkpoint over 100 files / 2,000 changed lines; storage of a 50-turn session
 *   editorUndo   Undo all of 200 hunks in a 20,000-line file through the real editor, in code-server
 *                (needs dist/tandem.vsix: `npm run package` first)
 *   fsRead       fs/read_text_file round trips for an open, unsaved 5 MB document
 *   hostileInputs  hostile text through the credential matcher, whole-file rewrites through the diffs, FIFOs and
 *                a 1 GB sparse file refused by fs/read_text_file (the unit tests prove the results, this times them)
 *   terminal     command output capture vs cat and a bare Node pipe reader; peak memory
 *   processTree  one pass over /proc that finds an agent's process tree (wall, CPU, event-loop stall);
 *                an agent killed with children in sessions of their own, until they are gone (Linux)
 *   inspector    20,000 frames opened, filtered and reported; a 20,000-frame recording replayed instantly;
 *                host ingest with frames kept for recordings vs not (ratio)
 *   streaming    a long answer from the real Claude adapter into the panel in code-server (needs dist/tandem.vsix)
 *                and, without --quick, into the webview in the Chromium harness
 *   bigThread    appending to a thread of 2,000 tool calls in the webview in Chromium, and loading it as a snapshot
 *   panelReady   opening the panel in code-server until the message box accepts input (needs dist/tandem.vsix)
 *   bundles      sizes of the production bundles in dist/ (run `npm run build` first)
 * Only streaming, bigThread, panelReady and editorUndo need Chromium (panelReady and editorUndo also code-server); only streaming and the full handshake need the real adapter.
 *
 * Options: --quick (smaller workloads, no real-adapter handshake), --runs=N (scripted handshakes,
 * default 7), --real-runs=N (Claude handshakes, default 7), --throughput-runs=N (host ingest rounds,
 * default 5), --chunks=N (notifications per flood, default 20000).
 *
 * Progress goes to stderr. Each section's report goes to stdout, and at the very end exactly one
 * `BENCH_JSON {...}` line with every figure under its dotted key, and under `stable` every key of
 * STABLE_KEYS (see bench/shared/figures.ts), null when its section did not run.
 */
import { performance } from 'node:perf_hooks';
import { bigThreadBench } from './bigThread/bigThreadBench';
import { bundlesBench } from './bundles/bundlesBench';
import { checkpointsBench } from './checkpoints/checkpointsBench';
import { createContext } from './shared/context';
import { editorUndoBench } from './editorUndo/editorUndoBench';
import { stableFigures, type Bench, type BenchOptions, type Figures } from './shared/figures';
import { fsReadBench } from './fsRead/fsReadBench';
import { handshakeBench } from './handshake/handshakeBench';
import { hostIngestBench } from './hostIngest/hostIngestBench';
import { hostileInputsBench } from './hostileInputs/hostileInputsBench';
import { inspectorBench } from './inspector/inspectorBench';
import { machine } from './shared/machine';
import { panelReadyBench } from './panelReady/panelReadyBench';
import { processTreeBench } from './processTree/processTreeBench';
import { reviewBench } from './review/reviewBench';
import { Cleanup } from './shared/resources';
import { stableTable } from './shared/report';
import { round } from './shared/stats';
import { streamingBench } from './streaming/streamingBench';
import { terminalBench } from './terminal/terminalBench';

const BENCHES: Bench[] = [handshakeBench, hostIngestBench, reviewBench, checkpointsBench, editorUndoBench, fsReadBench, hostileInputsBench, terminalBench, processTreeBench, inspectorBench, streamingBench, bigThreadBench, panelReadyBench, bundlesBench];

interface Selection {
  options: BenchOptions;
  benches: Bench[];
}

function bounded(name: string, value: string, min: number, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return parsed;
}

const NUMERIC_OPTIONS: Record<string, { field: Exclude<keyof BenchOptions, 'quick'>; min: number; max: number }> = {
  runs: { field: 'runs', min: 1, max: 50 },
  'real-runs': { field: 'realRuns', min: 1, max: 20 },
  'throughput-runs': { field: 'throughputRuns', min: 1, max: 50 },
  chunks: { field: 'chunks', min: 100, max: 1_000_000 },
};

function parseArguments(argv: string[]): Selection {
  const options: BenchOptions = { quick: false, runs: 7, realRuns: 7, throughputRuns: 5, chunks: 20_000 };
  const named = new Set<string>();
  for (const arg of argv) {
    const [name = '', value = ''] = arg.replace(/^--/, '').split('=');
    const numeric = NUMERIC_OPTIONS[name];
    if (arg === '--quick') options.quick = true;
    else if (arg.startsWith('--') && numeric) options[numeric.field] = bounded(name, value, numeric.min, numeric.max);
    else if (BENCHES.some((bench) => bench.name === arg)) named.add(arg);
    else {
      const known = ['--quick', ...Object.keys(NUMERIC_OPTIONS).map((option) => `--${option}=N`), ...BENCHES.map((bench) => bench.name)];
      throw new Error(`unknown option or section ${arg} (known: ${known.join(' ')})`);
    }
  }
  return { options, benches: named.size === 0 ? BENCHES : BENCHES.filter((bench) => named.has(bench.name)) };
}

const progress = (line: string) => process.stderr.write(`${line}\n`);
/** Set by SIGINT/SIGTERM: the signal handler cleans up and exits; failures it causes are not reported. */
let interrupted = false;

function header(selection: Selection, facts: ReturnType<typeof machine>): string[] {
  const args = process.argv.slice(2);
  return [
    `Tandem benchmark  (npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''})`,
    `machine: node ${facts.node}, ${facts.platform}, ${facts.cpus} CPUs (${facts.cpuModel}), ${facts.memoryGiB} GiB RAM, load avg at start ${facts.loadAverage.join(' ')}`,
    `versions: @agentclientprotocol/sdk ${facts.acpSdk}, claude-agent-acp ${facts.claudeAgentAcp}`,
    `sections: ${selection.benches.map((bench) => bench.name).join(', ')}`,
  ];
}

/** Runs the selected benches in order, printing each report as it completes; returns every figure. */
async function runBenches(selection: Selection, cleanup: Cleanup): Promise<Figures> {
  const context = createContext(selection.options, cleanup, progress);
  const figures: Figures = {};
  try {
    for (const [index, bench] of selection.benches.entries()) {
      const result = await bench.run(context);
      for (const key of Object.keys(result.figures)) {
        if (!key.startsWith(`${result.section}.`) || key in figures) throw new Error(`${bench.name}: figure key ${key} is outside its section or taken`);
      }
      Object.assign(figures, result.figures);
      process.stdout.write(`\n${index + 1}. ${bench.title}\n${result.lines.join('\n')}\n`);
    }
  } finally {
    const failures = await cleanup.runAll();
    for (const failure of failures) progress(`cleanup failed: ${failure}`);
  }
  return figures;
}

async function main(): Promise<void> {
  const selection = parseArguments(process.argv.slice(2));
  const cleanup = new Cleanup();
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    progress(`\n${signal}: stopping agents and removing temp files`);
    void cleanup.runAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const startedAt = performance.now();
  const facts = machine();
  process.stdout.write(`${header(selection, facts).join('\n')}\n`);
  const figures = await runBenches(selection, cleanup);
  const totalSeconds = (performance.now() - startedAt) / 1000;
  process.stdout.write(`\nStable figures (the same keys in every run; see STABLE_KEYS in bench/shared/figures.ts)\n${stableTable(figures)}\n`);
  process.stdout.write(`\ntotal: ${totalSeconds.toFixed(1)} s\n`);
  const json = {
    options: selection.options,
    sections: selection.benches.map((bench) => bench.name),
    machine: facts,
    /** Every stable key, null where its section did not run: a reader never has to guess a name. */
    stable: stableFigures(figures),
    figures,
    totalSeconds: round(totalSeconds, 1),
  };
  process.stdout.write(`BENCH_JSON ${JSON.stringify(json)}\n`);
}

main().then(
  () => {
    if (!interrupted) process.exit(0);
  },
  (error: unknown) => {
    if (interrupted) return;
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
