import * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities, clientInfo } from '../src/acp/clientCapabilities';
import { FrameStore } from '../src/acp/frames';
import type { AgentDefinition } from '../src/agents/agentConfig';
import { SessionController } from '../src/conversation/sessionController';
import { silentLogger } from '../src/util/logger';
import { RawNdjsonClient } from '../test/support/raw-ndjson-client';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import { claudeAgentSpec, type PreSessionStep } from '../test/support/real-agents';
import { definitionFromSpec } from '../test/support/realAgentDefinitions';
import { distribution, prefixed, single, slowdown, type Bench, type BenchContext, type Figure, type Figures } from './figures';
import { packageVersion } from './machine';
import { ms, ratio, table } from './report';
import { agentEnv, startClock, WARMUP_ROUNDS, withTimeout, type Cleanup, type Timed } from './resources';

/** One agent start as both clients see it; a fresh one per run (real agents want a clean HOME). */
export interface AgentLaunch {
  definition: AgentDefinition;
  /** Workspace: the process cwd and the session/new cwd. */
  cwd: string;
  /** Requests the raw client sends between initialize and session/new (Tandem decides itself). */
  preSession: PreSessionStep[];
  /** Removes what the launch created; called after the agent has stopped. */
  dispose(): void;
}

export interface HandshakeTarget {
  name: string;
  launch(): AgentLaunch;
}

/** Both clients' samples for one target, in the order they ran. */
export interface HandshakeResult {
  target: string;
  tandem: Timed[];
  raw: Timed[];
}

const HANDSHAKE_TIMEOUT_MS = 30_000;

/** Spawn -> initialize -> session/new through SessionController.start(); the agent is stopped after. */
async function tandemHandshake(launch: AgentLaunch, cleanup: Cleanup): Promise<Timed> {
  const clock = startClock();
  const session = new SessionController(launch.definition, { workspaceRoot: launch.cwd, trusted: true, frames: new FrameStore(), logger: silentLogger });
  const stop = cleanup.add(`stop ${launch.definition.id} (Tandem)`, async () => {
    await session.stopAgent();
    session.dispose();
  });
  try {
    const ready = await withTimeout(session.start(), HANDSHAKE_TIMEOUT_MS, `Tandem handshake with ${launch.definition.label}`);
    const elapsed = clock();
    if (!ready) throw new Error(`Tandem could not start ${launch.definition.label}: ${session.connectionView.message ?? 'unknown reason'}`);
    return elapsed;
  } finally {
    await stop();
  }
}

/** The same three steps with the minimal NDJSON client, same command, environment and parameters. */
async function rawHandshake(launch: AgentLaunch, cleanup: Cleanup): Promise<Timed> {
  const { definition } = launch;
  const clock = startClock();
  const client = RawNdjsonClient.spawn(
    { command: definition.command, args: definition.args, env: agentEnv(definition), cwd: launch.cwd },
    { requestTimeoutMs: HANDSHAKE_TIMEOUT_MS },
  );
  const close = cleanup.add(`stop ${definition.id} (raw)`, () => client.close());
  try {
    await client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: clientCapabilities({ fs: false, terminals: false }), clientInfo });
    for (const step of launch.preSession) await client.request(step.method, step.params);
    await client.request('session/new', { cwd: launch.cwd, mcpServers: [] });
    return clock();
  } finally {
    await close();
  }
}

/**
 * Interleaved runs (even runs Tandem first, odd runs raw first) so that drift and caches hit
 * both clients alike; the first `warmup` rounds are not counted. Runs never overlap.
 */
export async function measureHandshake(target: HandshakeTarget, runs: number, warmup: number, cleanup: Cleanup, progress: (line: string) => void): Promise<HandshakeResult> {
  const tandemSamples: Timed[] = [];
  const rawSamples: Timed[] = [];
  for (let round = 0; round < warmup + runs; round++) {
    const order = round % 2 === 0 ? (['tandem', 'raw'] as const) : (['raw', 'tandem'] as const);
    for (const client of order) {
      const launch = target.launch();
      const dispose = cleanup.add(`dispose launch of ${target.name}`, () => launch.dispose());
      try {
        const timed = client === 'tandem' ? await tandemHandshake(launch, cleanup) : await rawHandshake(launch, cleanup);
        if (round >= warmup) (client === 'tandem' ? tandemSamples : rawSamples).push(timed);
      } finally {
        await dispose();
      }
    }
    const label = round < warmup ? 'warm-up' : `run ${round - warmup + 1}/${runs}`;
    progress(`  handshake ${target.name}: ${label} tandem ${fmt(tandemSamples.at(-1), round >= warmup)} raw ${fmt(rawSamples.at(-1), round >= warmup)}`);
  }
  return { target: target.name, tandem: tandemSamples, raw: rawSamples };
}

function fmt(sample: Timed | undefined, counted: boolean): string {
  return counted && sample !== undefined ? `${sample.ms.toFixed(1)} ms (cpu ${sample.cpuMs.toFixed(1)} ms)` : '-';
}

const wall = (samples: Timed[]) => samples.map((sample) => sample.ms);
const cpu = (samples: Timed[]) => samples.map((sample) => sample.cpuMs);

function handshakeFigures(result: HandshakeResult): Figures {
  return {
    tandemMs: distribution(wall(result.tandem), 'ms'),
    rawMs: distribution(wall(result.raw), 'ms'),
    vsRaw: slowdown(wall(result.tandem), wall(result.raw)),
    minVsRawMin: single(Math.min(...wall(result.tandem)) / Math.min(...wall(result.raw)), 'x'),
    tandemCpuMs: distribution(cpu(result.tandem), 'ms'),
    rawCpuMs: distribution(cpu(result.raw), 'ms'),
  };
}

function handshakeTable(rows: { target: string; figures: Figures }[]): string {
  const spread = (figure: Figure | undefined) => (figure ? `${ms(figure.value)} [${ms(figure.min ?? figure.value)}..${ms(figure.max ?? figure.value)}]` : '-');
  const value = (figure: Figure | undefined, format: (value: number) => string) => (figure ? format(figure.value) : '-');
  return table(
    [
      { title: 'agent' }, { title: 'runs', align: 'right' }, { title: 'Tandem median [min..max]', align: 'right' }, { title: 'raw median [min..max]', align: 'right' },
      { title: 'Tandem/raw', align: 'right' }, { title: 'ratio of mins', align: 'right' },
      { title: 'client CPU Tandem', align: 'right' }, { title: 'client CPU raw', align: 'right' },
    ],
    rows.map(({ target, figures }) => [
      target,
      String(figures.tandemMs?.runs ?? '-'),
      spread(figures.tandemMs),
      spread(figures.rawMs),
      value(figures.vsRaw, ratio),
      value(figures.minVsRawMin, ratio),
      value(figures.tandemCpuMs, ms),
      value(figures.rawCpuMs, ms),
    ]),
  );
}

/** The real Claude adapter against the scripted Claude model server: a fresh HOME per launch. */
async function measureClaude(context: BenchContext): Promise<HandshakeResult> {
  const server = await startClaudeModelServer();
  const closeServer = context.cleanup.add('close Claude model server', () => server.close());
  try {
    const claude: HandshakeTarget = {
      name: `claude-agent-acp ${packageVersion('@agentclientprotocol/claude-agent-acp')} (scripted model server)`,
      launch: () => {
        const spec = claudeAgentSpec(server.url);
        return { definition: definitionFromSpec(spec), cwd: spec.cwd, preSession: spec.preSession, dispose: () => spec.dispose() };
      },
    };
    context.progress(`handshake: real Claude adapter, ${WARMUP_ROUNDS} warm-up + ${context.options.realRuns} interleaved rounds`);
    return await measureHandshake(claude, context.options.realRuns, WARMUP_ROUNDS, context.cleanup, context.progress);
  } finally {
    await closeServer();
  }
}

export const handshakeBench: Bench = {
  name: 'handshake',
  title: 'Handshake: spawn -> initialize -> session/new ready',
  async run(context) {
    const { options, progress } = context;
    const scripted = await context.scriptedAgent();
    progress(`handshake: scripted agent, ${WARMUP_ROUNDS} warm-up + ${options.runs} interleaved rounds`);
    const measured = [{ key: 'scripted', result: await measureHandshake(scripted, options.runs, WARMUP_ROUNDS, context.cleanup, progress) }];
    if (options.quick) progress('handshake: real Claude adapter skipped (--quick)');
    else measured.push({ key: 'claude', result: await measureClaude(context) });
    const rows = measured.map(({ key, result }) => ({ key, target: result.target, figures: handshakeFigures(result) }));
    return {
      section: 'handshake',
      figures: Object.assign({}, ...rows.map((row) => prefixed(`handshake.${row.key}`, row.figures))) as Figures,
      lines: [
        `   Medians of interleaved runs after ${WARMUP_ROUNDS} warm-up round.`,
        '   Tandem = SessionController.start(); raw = minimal NDJSON client; same command, env and request parameters.',
        '   Times are wall-clock; Tandem/raw is the ratio of the medians. "client CPU" is the median CPU time of this process in the',
        '   same span: the client\'s own work, without the agent\'s start-up, and much less noisy than wall-clock on a busy machine.',
        handshakeTable(rows),
        ...(options.quick ? ['   real Claude adapter: skipped (--quick)'] : []),
      ],
    };
  },
};
