import * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities, clientInfo } from '../../src/acp/clientCapabilities';
import { FrameStore } from '../../src/acp/frames';
import { SessionController } from '../../src/conversation/sessionController';
import { silentLogger } from '../../src/util/logger';
import { RawNdjsonClient } from '../../test/support/raw-ndjson-client';
import { startClaudeModelServer } from '../../test/support/model-servers/claude';
import { startGeminiModelServer } from '../../test/support/model-servers/gemini';
import { startOpenAIModelServer } from '../../test/support/model-servers/openai';
import type { ScriptedModelServer } from '../../test/support/model-servers/script';
import { claudeAgentSpec, codexAgentSpec, geminiAgentSpec, opencodeAgentSpec, qwenAgentSpec, type AgentSpec } from '../../test/support/real-agents';
import type { AgentLaunch, HandshakeTarget } from '../shared/agentLaunch';
import { measureFirstToken, type FirstTokenResult, type PromptScript } from './firstToken';
import { definitionFromSpec } from '../../test/support/realAgentDefinitions';
import { distribution, prefixed, single, slowdown, type Bench, type BenchContext, type Figure, type Figures } from '../shared/figures';
import { packageVersion } from '../shared/machine';
import { ms, ratio, table } from '../shared/report';
import { agentEnv, startClock, WARMUP_ROUNDS, withTimeout, type Cleanup, type Timed } from '../shared/resources';

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

/** A started agent: launches for the handshake, and what makes it answer a prompt with text. */
export interface StartedAgent {
  target: HandshakeTarget;
  script: PromptScript;
  close(): Promise<void>;
}

/**
 * An agent the section measures. Each one that runs here is listed in `HANDSHAKE_AGENTS`; an
 * agent added to the project adds its entry there (a real adapter behind its scripted model
 * server: `modelServerAgent`).
 */
export interface HandshakeAgent {
  /** The figures' key: handshake.<key>.*, handshake.firstToken.<key>.* */
  key: string;
  /** A real adapter: skipped with --quick. */
  real: boolean;
  start(context: BenchContext): Promise<StartedAgent>;
}

const ANSWER = 'First token.';

/**
 * Removes a launch's scratch HOME once the agent's last writes into it have landed: codex-acp's
 * own process can still be writing its session files for a moment after the agent was stopped.
 */
function disposeSettled(spec: AgentSpec): void {
  for (let attempt = 0; ; attempt++) {
    try {
      spec.dispose();
      return;
    } catch (error) {
      if (attempt >= 20 || (error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** A real adapter against its scripted model server: a fresh HOME per launch, the answer queued before each prompt. */
export function modelServerAgent(key: string, packageName: string, startServer: () => Promise<ScriptedModelServer>, spec: (modelUrl: string) => AgentSpec): HandshakeAgent {
  return {
    key,
    real: true,
    async start() {
      const server = await startServer();
      return {
        target: {
          name: `${key} ${packageVersion(packageName)} (scripted model server)`,
          launch: () => {
            const made = spec(server.url);
            return { definition: definitionFromSpec(made), cwd: made.cwd, preSession: made.preSession, dispose: () => disposeSettled(made) };
          },
        },
        script: { prompt: 'Say something short.', scriptAnswer: () => server.enqueue({ text: ANSWER }) },
        close: () => server.close(),
      };
    },
  };
}

export const HANDSHAKE_AGENTS: HandshakeAgent[] = [
  {
    key: 'scripted',
    real: false,
    start: async (context) => ({ target: await context.scriptedAgent(), script: { prompt: `echo ${ANSWER}`, scriptAnswer: () => undefined }, close: async () => undefined }),
  },
  modelServerAgent('claude', '@agentclientprotocol/claude-agent-acp', startClaudeModelServer, (url) => claudeAgentSpec(url)),
  modelServerAgent('gemini', '@google/gemini-cli', startGeminiModelServer, (url) => geminiAgentSpec(url)),
  modelServerAgent('codex', '@agentclientprotocol/codex-acp', startOpenAIModelServer, (url) => codexAgentSpec(url)),
  modelServerAgent('qwen', '@qwen-code/qwen-code', startOpenAIModelServer, (url) => qwenAgentSpec(url)),
  modelServerAgent('opencode', 'opencode-ai', startOpenAIModelServer, (url) => opencodeAgentSpec(url)),
];

interface Measured {
  key: string;
  handshake: HandshakeResult;
  firstToken: FirstTokenResult;
}

async function measureAgent(agent: HandshakeAgent, context: BenchContext): Promise<Measured> {
  const started = await agent.start(context);
  const close = context.cleanup.add(`close what ${agent.key} needs`, () => started.close());
  try {
    const runs = agent.real ? context.options.realRuns : context.options.runs;
    context.progress(`handshake: ${started.target.name}, ${WARMUP_ROUNDS} warm-up + ${runs} interleaved rounds`);
    const handshake = await measureHandshake(started.target, runs, WARMUP_ROUNDS, context.cleanup, context.progress);
    const launch = started.target.launch();
    const dispose = context.cleanup.add(`dispose first-token launch of ${agent.key}`, () => launch.dispose());
    try {
      const firstToken = await measureFirstToken({ ...launch, ...started.script }, FIRST_TOKEN_RUNS, context.cleanup, context.progress);
      return { key: agent.key, handshake, firstToken };
    } finally {
      await dispose();
    }
  } finally {
    await close();
  }
}

const FIRST_TOKEN_RUNS = 5;

function firstTokenFigures(result: FirstTokenResult): Figures {
  return { tandemMs: distribution(result.tandem, 'ms'), rawMs: distribution(result.raw, 'ms'), vsRaw: slowdown(result.tandem, result.raw) };
}

function firstTokenTable(rows: { key: string; figures: Figures }[]): string {
  const spread = (figure: Figure | undefined) => (figure ? `${ms(figure.value)} [${ms(figure.min ?? figure.value)}..${ms(figure.max ?? figure.value)}]` : '-');
  return table(
    [{ title: 'agent' }, { title: 'runs', align: 'right' }, { title: 'Tandem median [min..max]', align: 'right' }, { title: 'raw median [min..max]', align: 'right' }, { title: 'Tandem/raw', align: 'right' }],
    rows.map(({ key, figures }) => [key, String(figures.tandemMs?.runs ?? '-'), spread(figures.tandemMs), spread(figures.rawMs), figures.vsRaw ? ratio(figures.vsRaw.value) : '-']),
  );
}

export const handshakeBench: Bench = {
  name: 'handshake',
  title: 'Handshake (spawn -> initialize -> session/new ready) and first token after Enter, per agent',
  async run(context) {
    const { options, progress } = context;
    const measured: Measured[] = [];
    const notes: string[] = [];
    for (const agent of HANDSHAKE_AGENTS) {
      if (agent.real && options.quick) {
        notes.push(`   ${agent.key}: skipped (--quick)`);
        continue;
      }
      try {
        measured.push(await measureAgent(agent, context));
      } catch (error) {
        // One agent that cannot run here does not hide the others' figures; the report says why.
        notes.push(`   ${agent.key}: not measured: ${error instanceof Error ? error.message : String(error)}`);
        progress(`handshake: ${agent.key} failed: ${String(error)}`);
      }
    }
    const handshakeRows = measured.map(({ key, handshake }) => ({ key, target: handshake.target, figures: handshakeFigures(handshake) }));
    const tokenRows = measured.map(({ key, firstToken }) => ({ key, figures: firstTokenFigures(firstToken) }));
    return {
      section: 'handshake',
      figures: Object.assign({}, ...handshakeRows.map((row) => prefixed(`handshake.${row.key}`, row.figures)), ...tokenRows.map((row) => prefixed(`handshake.firstToken.${row.key}`, row.figures))) as Figures,
      lines: [
        `   Medians of interleaved runs after ${WARMUP_ROUNDS} warm-up round.`,
        '   Tandem = SessionController.start(); raw = minimal NDJSON client; same command, env and request parameters.',
        '   Times are wall-clock; Tandem/raw is the ratio of the medians. "client CPU" is the median CPU time of this process in the',
        '   same span: the client\'s own work, without the agent\'s start-up, and much less noisy than wall-clock on a busy machine.',
        handshakeTable(handshakeRows),
        `   First token after Enter: ${FIRST_TOKEN_RUNS} prompts per client on one open session each, alternating which goes first;`,
        '   Tandem = SessionController.prompt() to the first agent text in the thread; raw = session/prompt to the first agent_message_chunk.',
        firstTokenTable(tokenRows),
        ...notes,
      ],
    };
  },
};
