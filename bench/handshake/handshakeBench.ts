/**
 * The handshake section: for each agent of HANDSHAKE_AGENTS (agents.ts), the handshake and the
 * first token after Enter, Tandem against a minimal NDJSON client.
 */
import { distribution, prefixed, single, slowdown, type Bench, type BenchContext, type Figure, type Figures } from '../shared/figures';
import { ms, ratio, table } from '../shared/report';
import { WARMUP_ROUNDS, type Timed } from '../shared/resources';
import { HANDSHAKE_AGENTS, type HandshakeAgent } from './agents';
import { measureFirstToken, type FirstTokenResult } from './firstToken';
import { measureHandshake, type HandshakeResult } from './handshake';

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
