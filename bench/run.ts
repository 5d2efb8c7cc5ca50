/**
 * `npm run bench`: prints figures, never pass/fail.
 *
 *   1. Handshake overhead: spawn -> initialize -> session/new, Tandem's SessionController vs
 *      the minimal raw NDJSON client, on the scripted agent (compiled .mjs) and on the real
 *      Claude adapter against the scripted Claude model server (skipped with --quick).
 *   2. Host throughput: N agent_message_chunk notifications through Tandem's host path vs a
 *      loop that only splits and JSON.parses the same lines.
 *
 * Options: --quick (no real agent), --runs=N (scripted handshakes, default 7),
 * --real-runs=N (Claude handshakes, default 7), --throughput-runs=N (default 5),
 * --chunks=N (default 20000). Progress goes to stderr; the tables and a BENCH_JSON line to stdout.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import { claudeAgentSpec } from '../test/support/real-agents';
import { definitionFromSpec } from '../test/support/realAgentDefinitions';
import { repoRoot, scriptedAgentDefinition } from '../test/support/scriptedAgentSpec';
import { measureHandshake, type HandshakeResult, type HandshakeTarget } from './handshake';
import { runReviewBench } from './review';
import { runFsReadBench } from './fsRead';
import { runTerminalBench } from './terminals';
import { runStreamingBench } from './streaming';
import { count, ms, perSecond, ratio, table } from './report';
import { Cleanup, compileScriptedAgent, makeScratch, type Timed } from './resources';
import { median, round, summarize, type Summary } from './stats';
import {
  chunkLine, endToEndRaw, endToEndTandem, floodNdjson, inProcessConnection, parseOnly, sdkClientOnly, threadAndBatcherOnly, type PipelineRun,
} from './throughput';

interface Options {
  quick: boolean;
  runs: number;
  realRuns: number;
  throughputRuns: number;
  chunks: number;
}

const WARMUP_ROUNDS = 1;
/** The scripted agent numbers its sessions from 1, and each flood run uses a fresh agent. */
const FLOOD_SESSION_ID = 'scripted-1';

function parseOptions(argv: string[]): Options {
  const options: Options = { quick: false, runs: 7, realRuns: 7, throughputRuns: 5, chunks: 20_000 };
  const bounded = (name: string, value: string, min: number, max: number): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
    return parsed;
  };
  for (const arg of argv) {
    const [name = '', value = ''] = arg.replace(/^--/, '').split('=');
    if (arg === '--quick') options.quick = true;
    else if (name === 'runs') options.runs = bounded(name, value, 1, 50);
    else if (name === 'real-runs') options.realRuns = bounded(name, value, 1, 20);
    else if (name === 'throughput-runs') options.throughputRuns = bounded(name, value, 1, 50);
    else if (name === 'chunks') options.chunks = bounded(name, value, 100, 1_000_000);
    else throw new Error(`unknown option ${arg} (known: --quick --runs=N --real-runs=N --throughput-runs=N --chunks=N)`);
  }
  return options;
}

function packageVersion(name: string): string {
  try {
    const json = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string };
    return json.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    availableParallelism: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    loadAverage: os.loadavg().map((value) => round(value, 2)),
    acpSdk: packageVersion('@agentclientprotocol/sdk'),
    claudeAgentAcp: packageVersion('@agentclientprotocol/claude-agent-acp'),
  };
}

const progress = (line: string) => process.stderr.write(`${line}\n`);
/** Set by SIGINT/SIGTERM: the signal handler cleans up and exits; failures it causes are not reported. */
let interrupted = false;

type PathKey = 'parseOnly' | 'threadAndBatcher' | 'sdkClientOnly' | 'inProcessConnection' | 'endToEndTandem' | 'endToEndRaw';

interface PathFigures {
  key: PathKey;
  label: string;
  wallMs: Summary;
  cpuMs: Summary;
  /** DeltaBatcher batches (median), where the path has a batcher. */
  batches: number | null;
  /** Deltas inside those batches after merging (median). */
  deltas: number | null;
}

interface ThroughputFigures {
  chunks: number;
  runs: number;
  warmupRuns: number;
  paths: PathFigures[];
  generatedLineMatchesWire: boolean | null;
}

const PATH_LABELS: Record<PathKey, string> = {
  parseOnly: 'A  baseline: split + JSON.parse (in memory)',
  threadAndBatcher: 'B  parse + ThreadModel + DeltaBatcher (no tee, no SDK)',
  sdkClientOnly: 'C  SDK client alone, in memory (no Tandem code)',
  inProcessConnection: 'D  Tandem in-process: AcpConnection on in-memory streams',
  endToEndTandem: 'E  Tandem end to end: host path, agent over pipe',
  endToEndRaw: 'F  reference: raw NDJSON client, same agent + pipe',
};

async function measureThroughput(options: Options, agent: HandshakeTarget, cleanup: Cleanup): Promise<ThroughputFigures> {
  const { chunks, throughputRuns: runs } = options;
  const text = floodNdjson(chunks, FLOOD_SESSION_ID);
  const samples: Record<PathKey, (Timed & Partial<PipelineRun>)[]> = {
    parseOnly: [], threadAndBatcher: [], sdkClientOnly: [], inProcessConnection: [], endToEndTandem: [], endToEndRaw: [],
  };
  let wireLine: string | null = null;
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    const counted = round >= WARMUP_ROUNDS;
    // In-memory paths first (no agent process running), then the two pipe runs, order alternating.
    const parse = parseOnly(text, chunks);
    const direct = threadAndBatcherOnly(text, chunks);
    const sdkOnly = await sdkClientOnly(text, chunks);
    const inProcess = await inProcessConnection(text, chunks, FLOOD_SESSION_ID);
    let tandem: PipelineRun | undefined;
    let raw: Timed | undefined;
    const launch = agent.launch();
    try {
      const runTandem = async () => {
        const run = await endToEndTandem(launch.definition, launch.cwd, chunks, cleanup);
        wireLine ??= run.wireLine;
        tandem = run;
      };
      const runRaw = async () => {
        raw = await endToEndRaw(launch.definition, launch.cwd, chunks, cleanup);
      };
      if (round % 2 === 0) {
        await runTandem();
        await runRaw();
      } else {
        await runRaw();
        await runTandem();
      }
    } finally {
      launch.dispose();
    }
    if (!tandem || !raw) throw new Error('a flood run produced no result');
    if (counted) {
      samples.parseOnly.push(parse);
      samples.threadAndBatcher.push(direct);
      samples.sdkClientOnly.push(sdkOnly);
      samples.inProcessConnection.push(inProcess);
      samples.endToEndTandem.push(tandem);
      samples.endToEndRaw.push(raw);
    }
    const label = counted ? `run ${round - WARMUP_ROUNDS + 1}/${runs}` : 'warm-up';
    progress(
      `  throughput ${label}: A ${ms(parse.ms)}, B ${ms(direct.ms)}, C ${ms(sdkOnly.ms)}, D ${ms(inProcess.ms)}, `
        + `E ${ms(tandem.ms)} (cpu ${ms(tandem.cpuMs)}, ${tandem.batches} batches), F ${ms(raw.ms)} (cpu ${ms(raw.cpuMs)})`,
    );
  }
  const paths = (Object.keys(samples) as PathKey[]).map((key): PathFigures => {
    const runsOfPath = samples[key];
    const batches = runsOfPath.map((run) => run.batches).filter((value): value is number => value !== undefined);
    const deltas = runsOfPath.map((run) => run.deltas).filter((value): value is number => value !== undefined);
    return {
      key,
      label: PATH_LABELS[key],
      wallMs: summarize(runsOfPath.map((run) => run.ms)),
      cpuMs: summarize(runsOfPath.map((run) => run.cpuMs)),
      batches: batches.length > 0 ? median(batches) : null,
      deltas: deltas.length > 0 ? median(deltas) : null,
    };
  });
  return {
    chunks,
    runs,
    warmupRuns: WARMUP_ROUNDS,
    paths,
    // The agent's session ids carry its pid; the bytes around them must be the same.
    generatedLineMatchesWire: wireLine === null ? null : (wireLine as string).replace(/"sessionId":"[^"]*"/, `"sessionId":"${FLOOD_SESSION_ID}"`) === chunkLine(FLOOD_SESSION_ID),
  };
}

function handshakeTable(results: HandshakeResult[]): string {
  const spread = (summary: Summary) => `${ms(summary.median)} [${ms(summary.min)}..${ms(summary.max)}]`;
  return table(
    [
      { title: 'agent' }, { title: 'runs', align: 'right' }, { title: 'Tandem median [min..max]', align: 'right' }, { title: 'raw median [min..max]', align: 'right' },
      { title: 'Tandem/raw', align: 'right' }, { title: 'ratio of mins', align: 'right' },
      { title: 'client CPU Tandem', align: 'right' }, { title: 'client CPU raw', align: 'right' },
    ],
    results.map((result) => [
      result.target,
      String(result.tandemMs.runs),
      spread(result.tandemMs),
      spread(result.rawMs),
      ratio(result.ratio),
      ratio(result.tandemMs.min / result.rawMs.min),
      ms(result.tandemCpuMs.median),
      ms(result.rawCpuMs.median),
    ]),
  );
}

function throughputTable(figures: ThroughputFigures): string {
  const baseline = figures.paths.find((path) => path.key === 'parseOnly')?.wallMs.median ?? Number.NaN;
  return table(
    [
      { title: 'path' }, { title: 'median', align: 'right' }, { title: 'frames/s', align: 'right' }, { title: 'time vs A', align: 'right' },
      { title: 'min..max', align: 'right' }, { title: 'host CPU', align: 'right' }, { title: 'batches', align: 'right' },
    ],
    figures.paths.map((path) => [
      path.label,
      ms(path.wallMs.median),
      perSecond(figures.chunks / (path.wallMs.median / 1000)),
      ratio(path.wallMs.median / baseline),
      `${ms(path.wallMs.min)}..${ms(path.wallMs.max)}`,
      ms(path.cpuMs.median),
      path.batches === null ? '-' : String(path.batches),
    ]),
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
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
  const handshakes: HandshakeResult[] = [];
  let throughput: ThroughputFigures | null = null;
  let realSkipped: string | null = null;
  try {
    const scratch = makeScratch(cleanup);
    progress(`compiling the scripted agent with esbuild into ${scratch.root}`);
    const compiled = await compileScriptedAgent(scratch.dir('agent'));
    const workspace = scratch.dir('workspace');
    const scripted: HandshakeTarget = {
      name: 'scripted agent (compiled .mjs)',
      launch: () => ({ definition: { ...scriptedAgentDefinition(), args: [compiled] }, cwd: workspace, preSession: [], dispose: () => undefined }),
    };

    progress(`handshake: scripted agent, ${WARMUP_ROUNDS} warm-up + ${options.runs} interleaved rounds`);
    handshakes.push(await measureHandshake(scripted, options.runs, WARMUP_ROUNDS, cleanup, progress));

    if (options.quick) {
      realSkipped = '--quick';
      progress('handshake: real Claude adapter skipped (--quick)');
    } else {
      const server = await startClaudeModelServer();
      const closeServer = cleanup.add('close Claude model server', () => server.close());
      try {
        const claude: HandshakeTarget = {
          name: `claude-agent-acp ${facts.claudeAgentAcp} (scripted model server)`,
          launch: () => {
            const spec = claudeAgentSpec(server.url);
            return { definition: definitionFromSpec(spec), cwd: spec.cwd, preSession: spec.preSession, dispose: () => spec.dispose() };
          },
        };
        progress(`handshake: real Claude adapter, ${WARMUP_ROUNDS} warm-up + ${options.realRuns} interleaved rounds`);
        handshakes.push(await measureHandshake(claude, options.realRuns, WARMUP_ROUNDS, cleanup, progress));
      } finally {
        await closeServer();
      }
    }

    progress(`throughput: ${count(options.chunks)} chunks, ${WARMUP_ROUNDS} warm-up + ${options.throughputRuns} rounds`);
    throughput = await measureThroughput(options, scripted, cleanup);
  } finally {
    const failures = await cleanup.runAll();
    for (const failure of failures) progress(`cleanup failed: ${failure}`);
  }
  const totalSeconds = (performance.now() - startedAt) / 1000;

  const out: string[] = [];
  out.push(`Tandem benchmark  (${options.quick ? 'npm run bench -- --quick' : 'npm run bench'})`);
  out.push(`machine: node ${facts.node}, ${facts.platform}, ${facts.cpus} CPUs (${facts.cpuModel}), ${facts.memoryGiB} GiB RAM, load avg at start ${facts.loadAverage.join(' ')}`);
  out.push(`versions: @agentclientprotocol/sdk ${facts.acpSdk}, claude-agent-acp ${facts.claudeAgentAcp}`);
  out.push('');
  out.push(`1. Handshake: spawn -> initialize -> session/new ready (medians of interleaved runs after ${WARMUP_ROUNDS} warm-up round)`);
  out.push('   Tandem = SessionController.start(); raw = minimal NDJSON client; same command, env and request parameters.');
  out.push('   Times are wall-clock; Tandem/raw is the ratio of the medians. "client CPU" is the median CPU time of this process in the');
  out.push('   same span: the client\'s own work, without the agent\'s start-up, and much less noisy than wall-clock on a busy machine.');
  out.push(handshakeTable(handshakes));
  if (realSkipped) out.push(`   real Claude adapter: skipped (${realSkipped})`);
  out.push('');
  if (throughput) {
    const tandemPath = throughput.paths.find((path) => path.key === 'endToEndTandem');
    out.push(`2. Host throughput: ${count(throughput.chunks)} agent_message_chunk notifications (median of ${throughput.runs} runs after ${throughput.warmupRuns} warm-up)`);
    out.push(throughputTable(throughput));
    out.push('   A: the pre-generated NDJSON text (same bytes the agent writes) split on \\n, each line JSON.parsed.');
    out.push('   B: A + ThreadModel.applyUpdate + DeltaBatcher.push; synchronous, so the batcher flushes once.');
    out.push('   C: the same text in 64 KiB chunks through the ACP SDK client only: Readable.toWeb -> ndJsonStream -> JSON-RPC dispatch + schema validation -> a counting handler.');
    out.push('   D: C plus Tandem: its AcpConnection (lineTee + FrameStore before the SDK) -> ThreadModel -> DeltaBatcher. In memory the whole');
    out.push('      burst is one macrotask, so the 16 ms batch timer cannot fire before the end (1 batch).');
    out.push(`   E: ChatPresenter + SessionController, scripted agent 'flood ${throughput.chunks}' over stdio; from sendPrompt() to the last threadDeltas post${tandemPath?.deltas ? ` (${count(tandemPath.deltas)} deltas after merging)` : ''}.`);
    out.push('   F: the raw client receiving the same flood, session/prompt sent -> response: roughly what the agent and the pipe allow.');
    out.push('   host CPU: this process\'s CPU time during the run; in E and F the agent works in parallel on another core.');
    if (throughput.generatedLineMatchesWire === false) out.push('   note: the pre-generated line differs from the line the agent wrote on the wire.');
  }
  out.push('');
  out.push(`total: ${totalSeconds.toFixed(1)} s`);
  process.stdout.write(`${out.join('\n')}\n`);
  const json = {
    options,
    machine: facts,
    handshake: handshakes.map((result) => ({
      target: result.target,
      warmupRuns: result.warmupRuns,
      tandemMs: roundSummary(result.tandemMs),
      rawMs: roundSummary(result.rawMs),
      ratio: round(result.ratio, 3),
      ratioOfMins: round(result.tandemMs.min / result.rawMs.min, 3),
      tandemCpuMs: roundSummary(result.tandemCpuMs),
      rawCpuMs: roundSummary(result.rawCpuMs),
      tandemSamplesMs: result.tandemSamples.map((sample) => round(sample.ms)),
      rawSamplesMs: result.rawSamples.map((sample) => round(sample.ms)),
    })),
    realAgentSkipped: realSkipped,
    throughput: throughput && {
      chunks: throughput.chunks,
      runs: throughput.runs,
      warmupRuns: throughput.warmupRuns,
      generatedLineMatchesWire: throughput.generatedLineMatchesWire,
      ...Object.fromEntries(throughput.paths.map((path) => [path.key, pathJson(path, throughput)])),
    },
    totalSeconds: round(totalSeconds, 1),
  };
  process.stdout.write(`BENCH_JSON ${JSON.stringify(json)}\n`);

  // Feature benchmarks print their own tables and JSON lines.
  process.stdout.write('\n3. Review: change ledger\n');
  await runReviewBench({ quick: options.quick });
  await runFsReadBench({ quick: options.quick });
  process.stdout.write('\n4. Terminals\n');
  await runTerminalBench({ quick: options.quick });
  process.stdout.write('\n5. Panel: streaming, big threads, bundle\n');
  await runStreamingBench({ quick: options.quick });
}

function roundSummary(summary: Summary): Summary {
  return {
    runs: summary.runs,
    median: round(summary.median),
    min: round(summary.min),
    max: round(summary.max),
    p25: round(summary.p25),
    p75: round(summary.p75),
  };
}

function pathJson(path: PathFigures, figures: ThroughputFigures) {
  const baseline = figures.paths.find((candidate) => candidate.key === 'parseOnly')?.wallMs.median ?? Number.NaN;
  return {
    label: path.label.slice(3),
    ms: roundSummary(path.wallMs),
    cpuMs: roundSummary(path.cpuMs),
    framesPerSecond: Math.round(figures.chunks / (path.wallMs.median / 1000)),
    timeVsParseOnly: round(path.wallMs.median / baseline, 2),
    batches: path.batches,
    deltas: path.deltas,
  };
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
