/**
 * Streaming a 200 KB markdown answer from the real Claude adapter (scripted model server,
 * 12-character deltas: about 17,000 agent_message_chunks) into Tandem's panel, against a bare
 * NDJSON client on the same adapter (session/prompt sent -> its response received).
 * Two places the panel runs: real code-server (bench/streaming/codeServer.ts: the packaged
 * extension starts the adapter, timed from Enter to the last line in the webview's document,
 * frame gaps in the webview frame and the workbench page), and the Chromium harness the browser
 * tests use (Tandem's presenter in this process, the panel's real bundle and CSP: prompt sent ->
 * the last character on screen). Frame times are requestAnimationFrame deltas and long tasks
 * measured inside the page while it streams.
 * Two paces: the model streaming 5,000 deltas a second (a raw turn of 3-4 s, the pace the target
 * was set for; real models are far slower), and a flood as fast as the server can write, where
 * the agent's processes take a large share of this machine's cores (measured from /proc as the
 * agent's process-group CPU, printed with the figures) and Tandem and Chromium share the rest.
 * Each round runs raw and Tandem, the order alternating round by round; ratios are per round. In
 * code-server each timed prompt waits until both adapters, code-server and Chromium are at rest:
 * an adapter goes on working after it answered, and would otherwise load the other side's turn.
 */
import { performance } from 'node:perf_hooks';
import { FrameStore } from '../../src/acp/frames';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { silentLogger } from '../../src/util/logger';
import { startClaudeModelServer } from '../../test/support/model-servers/claude';
import type { ScriptedModelServer } from '../../test/support/model-servers/script';
import { openPanel } from '../../test/support/panelHarness';
import { claudeAgentSpec } from '../../test/support/real-agents';
import { definitionFromSpec } from '../../test/support/realAgentDefinitions';
import type { WorkbenchBrowser } from '../../test/support/workbench';
import { PANEL_VIEWPORT } from '../shared/context';
import { distribution, pairedRatios, prefixed, single, type Bench, type BenchContext, type Figure, type Figures } from '../shared/figures';
import { expectLastLineInView, lastMessageEndsWith, startFrameProbe, stopFrameProbe, type FrameGaps } from './frameProbe';
import { longFrameFigures } from './longFrames';
import { sumOfCpu, untilIdle, type IdleWait } from '../shared/processCpu';
import { openRawAgent, type Pace, type RawTurn } from './rawAgent';
import { count, ms } from '../shared/report';
import { codeServerLines, harnessLines } from './report';
import { benchMarkdown, CHUNK, END_MARKER } from '../shared/streamedAnswer';
import { openCodeServerStreaming, type CodeServerTurn } from './codeServer';
import { folderScope } from '../../src/workspace/workspaceScope';

const MODEL_PACE = 5_000;
const PACES: Pace[] = [
  { key: 'paced', label: `model pace: ${count(MODEL_PACE)} deltas/s`, deltasPerSecond: MODEL_PACE },
  { key: 'flood', label: 'flood: as fast as the server writes' },
];

/** The harness's raw turn: an adapter of its own, as each harness panel turn starts one. */
async function harnessRawTurn(model: ScriptedModelServer, text: string, pace: Pace): Promise<RawTurn> {
  const agent = await openRawAgent(model);
  try {
    return await agent.turn(text, pace);
  } finally {
    await agent.close();
  }
}

interface PanelTurn extends FrameGaps {
  ms: number;
  chunks: number;
}

async function panelTurn(model: ScriptedModelServer, browser: WorkbenchBrowser, text: string, pace: Pace): Promise<PanelTurn> {
  const spec = claudeAgentSpec(model.url);
  const frames = new FrameStore();
  const harness = await openPanel({ browser, viewport: PANEL_VIEWPORT });
  let presenter: ChatPresenter | null = null;
  const post = harness.connect(() => presenter as ChatPresenter);
  presenter = new ChatPresenter(() => [definitionFromSpec(spec)], spec.name, { workspace: () => folderScope(spec.cwd), trusted: true, frames, logger: silentLogger }, post,
    { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined });
  const created = presenter;
  try {
    await harness.page.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
    await startFrameProbe(harness.page);
    model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: pace.deltasPerSecond });
    const started = performance.now();
    const turn = created.sendPrompt('Write the long answer');
    // Checked every frame, so only the end of the newest message is read (the marker is its last line).
    await harness.page.waitForFunction(lastMessageEndsWith, END_MARKER, { polling: 'raf', timeout: 300_000 });
    const elapsed = performance.now() - started;
    await expectLastLineInView(harness.page, END_MARKER);
    await turn;
    const probe = await stopFrameProbe(harness.page);
    const chunks = frames.frames().filter((frame) => frame.direction === 'in' && frame.text.includes('"agent_message_chunk"')).length;
    return { ms: elapsed, chunks, ...probe };
  } finally {
    await harness.close();
    await created.currentSession.stopAgent();
    created.dispose();
    spec.dispose();
  }
}

interface Rounds<T> {
  pace: Pace;
  raw: RawTurn[];
  tandem: T[];
}

/**
 * `runs` rounds of one raw and one Tandem turn; the order alternates, so neither side always
 * runs on a machine the other just warmed or loaded.
 */
async function alternate<T extends { ms: number }>(pace: Pace, runs: number, raw: () => Promise<RawTurn>, tandem: () => Promise<T>, progress: (line: string) => void): Promise<Rounds<T>> {
  const rounds: Rounds<T> = { pace, raw: [], tandem: [] };
  for (let run = 0; run < runs; run++) {
    const rawFirst = run % 2 === 0;
    const first = rawFirst ? await raw() : await tandem();
    const rawTurn = rawFirst ? first as RawTurn : await raw();
    const tandemTurn = rawFirst ? await tandem() : first as T;
    rounds.raw.push(rawTurn);
    rounds.tandem.push(tandemTurn);
    progress(`  ${pace.label}, run ${run + 1}/${runs}${rawFirst ? '' : ' (Tandem first)'}: raw ${ms(rawTurn.ms)}, Tandem ${ms(tandemTurn.ms)} (${rawTurn.chunks} chunks)`);
  }
  return rounds;
}

const worst = <T>(turns: T[], pick: (turn: T) => number): Figure => single(Math.max(...turns.map(pick)), 'count');

function rawFigures(prefix: string, raw: RawTurn[]): Figures {
  const agentCores = raw.flatMap((turn) => (turn.agentCores === null ? [] : [turn.agentCores]));
  return {
    [`${prefix}rawMs`]: distribution(raw.map((turn) => turn.ms), 'ms'),
    [`${prefix}rawFirstTokenMs`]: distribution(raw.map((turn) => turn.firstTokenMs), 'ms'),
    ...(agentCores.length > 0 ? { [`${prefix}agentCores`]: distribution(agentCores, 'count') } : {}),
  };
}

/** The harness's figures of one pace, under `streaming.harness.<pace>`. */
function harnessFigures({ pace, raw, tandem }: Rounds<PanelTurn>): Figures {
  return prefixed(`streaming.harness.${pace.key}`, {
    ...rawFigures('', raw),
    panelMs: distribution(tandem.map((turn) => turn.ms), 'ms'),
    vsRaw: pairedRatios(tandem.map((turn) => turn.ms), raw.map((turn) => turn.ms)),
    maxFrameGapMs: distribution(tandem.map((turn) => turn.maxFrameMs), 'ms'),
    p99FrameMs: distribution(tandem.map((turn) => turn.p99FrameMs), 'ms'),
    framesOver50: worst(tandem, (turn) => turn.framesOver50),
    longTasks: worst(tandem, (turn) => turn.longTasks),
  });
}

/**
 * code-server's figures of one pace, under `streaming.<pace>`: `maxFrameGapMs` is the longer gap
 * of the webview and the workbench, per run. The model pace's ratio is also the stable
 * `streaming.paced.vsRaw`.
 */
function codeServerFigures({ pace, raw, tandem, probed, waits }: CodeServerRounds): Figures {
  const vsRaw = pairedRatios(tandem.map((turn) => turn.ms), raw.map((turn) => turn.ms));
  return prefixed(`streaming.${pace.key}`, {
    ...rawFigures('', raw),
    codeServerMs: distribution(tandem.map((turn) => turn.ms), 'ms'),
    codeServerFirstTokenMs: distribution(tandem.map((turn) => turn.firstTokenMs), 'ms'),
    codeServerVsRaw: vsRaw,
    ...(pace.key === 'paced' ? { vsRaw } : {}),
    ...frameFigures(probed),
    chunks: distribution(raw.map((turn) => turn.chunks), 'count'),
    ...bothSides(raw, tandem, 'afterStreamMs'),
    ...bothSides(raw, tandem, 'modelRequestMs'),
    restWaitMs: distribution(waits.map((wait) => wait.waitedMs), 'ms'),
    restMissed: single(waits.filter((wait) => !wait.idle).length, 'count'),
    ...cpuFigures(raw, tandem),
  });
}

/** Frame gaps from the turns run with the probes, and those turns' time and renderer CPU (what the probes cost shows beside the timed turns'). */
function frameFigures(probed: CodeServerTurn[]): Figures {
  const gaps = probed.flatMap((turn) => (turn.frames ? [turn.frames] : []));
  if (gaps.length === 0) return {};
  const renderer = probed.flatMap((turn) => (turn.cpu ? [turn.cpu.rendererMs] : []));
  return {
    maxFrameGapMs: distribution(gaps.map((frames) => Math.max(frames.webview.maxFrameMs, frames.workbench.maxFrameMs)), 'ms'),
    webviewMaxFrameGapMs: distribution(gaps.map((frames) => frames.webview.maxFrameMs), 'ms'),
    workbenchMaxFrameGapMs: distribution(gaps.map((frames) => frames.workbench.maxFrameMs), 'ms'),
    webviewFramesOver50: worst(gaps, (frames) => frames.webview.framesOver50),
    workbenchFramesOver50: worst(gaps, (frames) => frames.workbench.framesOver50),
    webviewLongTasks: worst(gaps, (frames) => frames.webview.longTasks),
    workbenchLongTasks: worst(gaps, (frames) => frames.workbench.longTasks),
    probedMs: distribution(probed.map((turn) => turn.ms), 'ms'),
    ...(renderer.length > 0 ? { 'cpu.probedRendererMs': distribution(renderer, 'ms') } : {}),
    ...longFrameFigures(gaps.flatMap((frames) => frames.workbench.longFrames)),
  };
}

/**
 * A moment both sides record on the model server's clock, as `raw<Name>` and `codeServer<Name>`:
 * `afterStreamMs`, how long after the model's last byte each side finished (the agent catching
 * up, then what Tandem adds after it); `modelRequestMs`, how long after the prompt each side's
 * adapter asked the model (the part of the first token that is the agent's, not the panel's).
 */
function bothSides(raw: RawTurn[], tandem: CodeServerTurn[], field: 'afterStreamMs' | 'modelRequestMs'): Figures {
  const rawValues = raw.flatMap((turn) => (turn[field] === null ? [] : [turn[field]]));
  const tandemValues = tandem.flatMap((turn) => (turn[field] === null ? [] : [turn[field]]));
  if (rawValues.length === 0 || tandemValues.length === 0) return {};
  const name = `${field[0]?.toUpperCase() ?? ''}${field.slice(1)}`;
  return { [`raw${name}`]: distribution(rawValues, 'ms'), [`codeServer${name}`]: distribution(tandemValues, 'ms') };
}

/** CPU per turn by whose it is (/proc), under `cpu.`: what Tandem costs, less at the mercy of the machine's load than its times. */
function cpuFigures(raw: RawTurn[], tandem: CodeServerTurn[]): Figures {
  const rawAgent = raw.flatMap((turn) => (turn.agentCpuMs === null ? [] : [turn.agentCpuMs]));
  const measured = tandem.flatMap((turn) => (turn.cpu ? [turn.cpu] : []));
  const start = tandem.flatMap((turn) => (turn.startCpu ? [turn.startCpu] : []));
  if (rawAgent.length === 0 || measured.length === 0) return {};
  return {
    ...(start.length > 0 ? {
      'cpu.start.agentMs': distribution(start.map((cpu) => cpu.agentMs), 'ms'),
      'cpu.start.hostMs': distribution(start.map((cpu) => cpu.hostMs), 'ms'),
      'cpu.start.rendererMs': distribution(start.map((cpu) => cpu.rendererMs), 'ms'),
      'cpu.start.gpuMs': distribution(start.map((cpu) => cpu.gpuMs), 'ms'),
    } : {}),
    'cpu.rawAgentMs': distribution(rawAgent, 'ms'),
    'cpu.agentMs': distribution(measured.map((cpu) => cpu.agentMs), 'ms'),
    'cpu.hostMs': distribution(measured.map((cpu) => cpu.hostMs), 'ms'),
    'cpu.rendererMs': distribution(measured.map((cpu) => cpu.rendererMs), 'ms'),
    'cpu.gpuMs': distribution(measured.map((cpu) => cpu.gpuMs), 'ms'),
  };
}

/** Harness rounds for both paces, after one warm-up turn of each side (Chromium's first load and compile is not counted). */
async function measureHarness(context: BenchContext, model: ScriptedModelServer, text: string, runs: number): Promise<Rounds<PanelTurn>[]> {
  const browser = await context.browser();
  const warmUp = benchMarkdown(20_000);
  await harnessRawTurn(model, warmUp, PACES[0] as Pace);
  await panelTurn(model, browser, warmUp, PACES[0] as Pace);
  const rounds: Rounds<PanelTurn>[] = [];
  for (const pace of PACES) {
    rounds.push(await alternate(pace, runs, () => harnessRawTurn(model, text, pace), () => panelTurn(model, browser, text, pace), context.progress));
  }
  return rounds;
}

/** code-server rounds for both paces: one adapter process per side serves every turn, each in a new session. */
interface CodeServerRounds extends Rounds<CodeServerTurn> {
  /** Tandem turns of their own with the frame probes running: the frame gaps, never the times compared with the raw client's. */
  probed: CodeServerTurn[];
  /** The wait for rest before each timed prompt of the pace, both sides'. */
  waits: IdleWait[];
}

async function measureCodeServer(context: BenchContext, model: ScriptedModelServer, text: string, runs: number): Promise<CodeServerRounds[]> {
  context.progress('streaming: starting code-server with the packaged extension (dist/tandem.vsix)');
  const editor = await openCodeServerStreaming(model);
  const closeEditor = context.cleanup.add('stop code-server (streaming)', () => editor.close());
  const raw = await openRawAgent(model);
  const closeRaw = context.cleanup.add('stop the raw client\'s adapter (streaming)', () => raw.close());
  try {
    const warmUp = benchMarkdown(20_000);
    await raw.turn(warmUp, PACES[0] as Pace);
    await editor.turn(warmUp, PACES[0] as Pace, END_MARKER);
    const rounds: CodeServerRounds[] = [];
    for (const pace of PACES) {
      const waits: IdleWait[] = [];
      // Both sides at rest before each timed prompt: the other side's agent is not still working on its last turn.
      const atRest = async () => {
        waits.push(await untilIdle(() => sumOfCpu(raw.cpuMs(), editor.cpuMs())));
      };
      const timed = await alternate(pace, runs, () => raw.turn(text, pace, atRest), () => editor.turn(text, pace, END_MARKER, { beforePrompt: atRest }), context.progress);
      const probed: CodeServerTurn[] = [];
      for (let run = 0; run < runs; run++) {
        probed.push(await editor.turn(text, pace, END_MARKER, { beforePrompt: atRest, probeFrames: true }));
        context.progress(`  ${pace.label}, frame gaps ${run + 1}/${runs}: Tandem ${ms(probed[run]?.ms ?? Number.NaN)} with the frame probes`);
      }
      rounds.push({ ...timed, probed, waits });
    }
    return rounds;
  } finally {
    await closeRaw();
    await closeEditor();
  }
}


export const streamingBench: Bench = {
  name: 'streaming',
  title: 'Panel: streaming a long answer',
  async run(context) {
    const { quick } = context.options;
    const runs = 5;
    const text = benchMarkdown(quick ? 50_000 : 200_000);
    // --quick measures the real editor only: its figures are the stable ones.
    context.progress(`streaming: ${count(text.length)} characters in ${CHUNK}-character deltas, ${runs} alternated rounds per pace after a warm-up turn, in code-server${quick ? '' : ' then the harness'}`);
    const model = await startClaudeModelServer();
    const closeModel = context.cleanup.add('close Claude model server', () => model.close());
    const figures: Figures = {};
    try {
      for (const rounds of await measureCodeServer(context, model, text, runs)) Object.assign(figures, codeServerFigures(rounds));
      if (!quick) for (const rounds of await measureHarness(context, model, text, runs)) Object.assign(figures, harnessFigures(rounds));
    } finally {
      await closeModel();
    }
    return {
      section: 'streaming',
      figures,
      lines: [
        `${count(text.length)} characters of markdown, ${count(figures['streaming.flood.chunks']?.value ?? Number.NaN)} agent_message_chunks per turn (real claude-agent-acp, scripted model server); raw = a bare NDJSON client, session/prompt -> response.`,
        ...codeServerLines(figures, PACES),
        ...(quick ? ['Chromium harness: not run with --quick.'] : harnessLines(figures, PACES)),
        '   Frame times: requestAnimationFrame deltas inside the page while streaming (headless Chromium, no GPU); long tasks from PerformanceObserver.',
      ],
    };
  },
};
