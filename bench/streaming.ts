/**
 * Streaming into the panel: a 200 KB markdown answer from the real Claude adapter (scripted
 * model server, 12-character deltas: about 17,000 agent_message_chunks). "Raw": a bare NDJSON
 * client, session/prompt sent -> answer received. "Panel": Tandem's presenter with the panel's
 * real webview bundle in Chromium (the harness the browser tests use, not code-server): prompt
 * sent -> the last character is on screen. Frame times are requestAnimationFrame deltas and long
 * tasks measured inside the page while it streams.
 * Two paces: the model streaming 5,000 deltas a second (a raw turn of 3-4 s, the pace the target
 * was set for; real models are far slower), and a flood as fast as the server can write, where
 * the agent's processes take a large share of this machine's cores (measured from /proc as the
 * agent's process-group CPU, printed with the figures) and Tandem's host and Chromium share the rest.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { FrameStore } from '../src/acp/frames';
import { ChatPresenter } from '../src/panel/chatPresenter';
import { silentLogger } from '../src/util/logger';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import type { ScriptedModelServer } from '../test/support/model-servers/script';
import { openPanel, type PanelHarness } from '../test/support/panelHarness';
import { RawNdjsonClient } from '../test/support/raw-ndjson-client';
import { claudeAgentSpec } from '../test/support/real-agents';
import { definitionFromSpec } from '../test/support/realAgentDefinitions';
import type { WorkbenchBrowser } from '../test/support/workbench';
import { PANEL_VIEWPORT } from './context';
import { distribution, prefixed, single, slowdown, type Bench, type BenchContext, type Figure, type Figures } from './figures';
import { count, ms, ratio, table } from './report';
import { processGroupCpuMs } from './processCpu';
import { median, percentile } from './stats';

const END_MARKER = 'END-OF-STREAMING-BENCH';
const CHUNK = 12;

interface Pace {
  /** Figure key under `streaming`. */
  key: 'paced' | 'flood';
  label: string;
  deltasPerSecond?: number;
}

const MODEL_PACE = 5_000;
const PACES: Pace[] = [
  { key: 'paced', label: `model pace: ${count(MODEL_PACE)} deltas/s`, deltasPerSecond: MODEL_PACE },
  { key: 'flood', label: 'flood: as fast as the server writes' },
];

/** Markdown like a long real answer: headings, paragraphs, lists and fenced code, about `bytes` long. */
export function benchMarkdown(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = i % 5 === 4
      ? `\`\`\`ts\nexport function step${i}(input: number): number {\n  return input * ${i} + ${i % 7};\n}\n\`\`\`\n\n`
      : i % 5 === 2
        ? `- item ${i}: **bold** and \`code\`\n- a [link](src/file${i}.ts#L${i}) and more text\n\n`
        : `## Section ${i}\n\nThis paragraph ${i} explains a change in plain words, long enough to wrap across the panel's width twice over.\n\n`;
    parts.push(part);
    size += part.length;
  }
  return `${parts.join('')}${END_MARKER}\n`;
}

interface RawTurn {
  ms: number;
  /** The agent's process group (adapter + its helpers): CPU time over the turn / wall time. */
  agentCores: number | null;
}

async function rawTurn(model: ScriptedModelServer, text: string, pace: Pace): Promise<RawTurn> {
  const spec = claudeAgentSpec(model.url);
  const client = RawNdjsonClient.spawn(spec, { requestTimeoutMs: 120_000 });
  try {
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'bench', version: '1' } });
    const session = await client.request<{ sessionId: string }>('session/new', { cwd: spec.cwd, mcpServers: [] });
    model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: pace.deltasPerSecond });
    // The client spawns the agent detached, so the agent's pid is its process group.
    const group = client.child.pid ?? 0;
    const cpuBefore = processGroupCpuMs(group);
    const started = performance.now();
    await client.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Write the long answer' }] }, 300_000);
    const elapsed = performance.now() - started;
    const cpuAfter = processGroupCpuMs(group);
    return { ms: elapsed, agentCores: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / elapsed };
  } finally {
    await client.close();
    spec.dispose();
  }
}

interface PanelTurn {
  ms: number;
  chunks: number;
  maxFrameMs: number;
  p99FrameMs: number;
  framesOver50: number;
  longTasks: number;
}

async function panelTurn(model: ScriptedModelServer, browser: WorkbenchBrowser, text: string, pace: Pace): Promise<PanelTurn> {
  const spec = claudeAgentSpec(model.url);
  const frames = new FrameStore();
  const harness = await openPanel({ browser, viewport: PANEL_VIEWPORT });
  let presenter: ChatPresenter | null = null;
  const post = harness.connect(() => presenter as ChatPresenter);
  presenter = new ChatPresenter(() => [definitionFromSpec(spec)], spec.name, { workspaceRoot: spec.cwd, trusted: true, frames, logger: silentLogger }, post,
    { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined });
  const created = presenter;
  try {
    await harness.page.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
    await startFrameProbe(harness);
    model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: pace.deltasPerSecond });
    const started = performance.now();
    const turn = created.sendPrompt('Write the long answer');
    // Checked every frame, so only the end of the newest message is read (the marker is its last line).
    await harness.page.waitForFunction((marker) => {
      const messages = document.querySelectorAll('.agent-message');
      const last = messages[messages.length - 1];
      const tail = last?.querySelector('.md-tail');
      const end = tail ? `${tail.previousElementSibling?.textContent ?? ''}${tail.textContent ?? ''}` : (last?.textContent ?? '');
      return end.includes(marker);
    }, END_MARKER, { polling: 'raf', timeout: 300_000 });
    const elapsed = performance.now() - started;
    await turn;
    const probe = await stopFrameProbe(harness);
    const chunks = frames.frames().filter((frame) => frame.direction === 'in' && frame.text.includes('"agent_message_chunk"')).length;
    return { ms: elapsed, chunks, ...probe };
  } finally {
    await harness.close();
    await created.currentSession.stopAgent();
    created.dispose();
    spec.dispose();
  }
}

/** rAF deltas and long tasks inside the page, from now until `stopFrameProbe`. */
async function startFrameProbe(harness: PanelHarness): Promise<void> {
  // A string, not a function: the TypeScript loader would add helpers the page does not have.
  await harness.page.evaluate(`(() => {
    const state = { deltas: [], longTasks: 0, running: true, last: performance.now() };
    window.__frameProbe = state;
    new PerformanceObserver((list) => { state.longTasks += list.getEntries().length; }).observe({ type: 'longtask', buffered: false });
    const tick = (now) => {
      state.deltas.push(now - state.last);
      state.last = now;
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

async function stopFrameProbe(harness: PanelHarness): Promise<Omit<PanelTurn, 'ms' | 'chunks'>> {
  const { deltas, longTasks } = await harness.page.evaluate(() => {
    const state = (window as unknown as { __frameProbe: { deltas: number[]; longTasks: number; running: boolean } }).__frameProbe;
    state.running = false;
    return { deltas: state.deltas.slice(1), longTasks: state.longTasks };
  });
  return {
    maxFrameMs: Math.max(0, ...deltas),
    p99FrameMs: deltas.length > 0 ? percentile(deltas, 99) : 0,
    framesOver50: deltas.filter((delta) => delta > 50).length,
    longTasks,
  };
}

interface PaceRuns {
  pace: Pace;
  raw: RawTurn[];
  panel: PanelTurn[];
}

function paceFigures({ raw: rawTurns, panel }: PaceRuns): Figures {
  const raw = rawTurns.map((turn) => turn.ms);
  const agentCores = rawTurns.flatMap((turn) => (turn.agentCores === null ? [] : [turn.agentCores]));
  const panelMs = panel.map((turn) => turn.ms);
  const worst = (pick: (turn: PanelTurn) => number) => Math.max(...panel.map(pick));
  return {
    rawMs: distribution(raw, 'ms'),
    panelMs: distribution(panelMs, 'ms'),
    vsRaw: slowdown(panelMs, raw),
    ...(agentCores.length > 0 ? { agentCores: distribution(agentCores, 'count') } : {}),
    maxFrameGapMs: single(worst((turn) => turn.maxFrameMs), 'ms'),
    p99FrameMs: distribution(panel.map((turn) => turn.p99FrameMs), 'ms'),
    framesOver50: single(worst((turn) => turn.framesOver50), 'count'),
    longTasks: single(worst((turn) => turn.longTasks), 'count'),
    chunks: distribution(panel.map((turn) => turn.chunks), 'count'),
  };
}

function paceRows(pace: Pace, figures: Figures): string[][] {
  const of = (key: string): Figure => figures[key] ?? { value: Number.NaN, unit: 'ms' };
  const runs = String(of('rawMs').runs ?? '-');
  return [
    [`${pace.label}: raw NDJSON client, prompt -> answer`, ms(of('rawMs').value), runs, 'baseline', '-', '-', '-', '-'],
    [`${pace.label}: Tandem panel, prompt -> last character shown`, ms(of('panelMs').value), runs, ratio(of('vsRaw').value),
      ms(of('maxFrameGapMs').value), ms(of('p99FrameMs').value), String(of('framesOver50').value), String(of('longTasks').value)],
  ];
}

/** Raw and panel turns in turn, after one warm-up turn of each. */
async function measurePaces(context: BenchContext, text: string, runs: number): Promise<PaceRuns[]> {
  const browser = await context.browser();
  const model = await startClaudeModelServer();
  const closeModel = context.cleanup.add('close Claude model server', () => model.close());
  const paces: PaceRuns[] = PACES.map((pace) => ({ pace, raw: [], panel: [] }));
  try {
    // Like the other sections: one turn first, so Chromium's first load and compile of the bundle is not counted.
    const warmUp = benchMarkdown(20_000);
    await rawTurn(model, warmUp, PACES[0] as Pace);
    await panelTurn(model, browser, warmUp, PACES[0] as Pace);
    for (const figures of paces) {
      for (let run = 0; run < runs; run++) {
        // The order alternates, so neither side always runs on a machine the other just warmed or loaded.
        const rawFirst = run % 2 === 0;
        const first = rawFirst ? await rawTurn(model, text, figures.pace) : await panelTurn(model, browser, text, figures.pace);
        const raw = rawFirst ? first as RawTurn : await rawTurn(model, text, figures.pace);
        const panel = rawFirst ? await panelTurn(model, browser, text, figures.pace) : first as PanelTurn;
        figures.raw.push(raw);
        figures.panel.push(panel);
        context.progress(`  ${figures.pace.label}, run ${run + 1}/${runs}: raw ${ms(raw.ms)}, panel ${ms(panel.ms)} (max frame ${ms(panel.maxFrameMs)}, ${panel.chunks} chunks)`);
      }
    }
    return paces;
  } finally {
    await closeModel();
  }
}

/** What the agent itself burnt while the raw client read its answer: the load the panel competes with. */
function agentCpuLine(pace: Pace, cores: Figure | undefined): string {
  if (!cores) return `   ${pace.label}: the agent's CPU could not be read (no /proc).`;
  return `   ${pace.label}: the agent's process group used ${cores.value.toFixed(2)} cores (min ${(cores.min ?? cores.value).toFixed(2)}, max ${(cores.max ?? cores.value).toFixed(2)}) `
    + `of ${os.availableParallelism()} during the raw turns (/proc CPU time / wall time).`;
}

export const streamingBench: Bench = {
  name: 'streaming',
  title: 'Panel: streaming a long answer',
  async run(context) {
    const { quick } = context.options;
    const runs = 5;
    const text = benchMarkdown(quick ? 50_000 : 200_000);
    context.progress(`streaming: ${count(text.length)} characters in ${CHUNK}-character deltas, ${runs} interleaved runs per pace after a warm-up turn`);
    const paces = await measurePaces(context, text, runs);
    const measured = paces.map((runsOfPace) => ({ pace: runsOfPace.pace, figures: paceFigures(runsOfPace) }));
    const chunks = median(paces.flatMap((runsOfPace) => runsOfPace.panel.map((turn) => turn.chunks)));
    return {
      section: 'streaming',
      figures: Object.assign({}, ...measured.map(({ pace, figures }) => prefixed(`streaming.${pace.key}`, figures))) as Figures,
      lines: [
        'Streaming into the real webview bundle (Chromium harness with the panel\'s CSP; not code-server)',
        table(
          [{ title: 'path' }, { title: 'median', align: 'right' }, { title: 'runs', align: 'right' }, { title: 'vs raw', align: 'right' }, { title: 'max frame', align: 'right' },
            { title: 'p99 frame', align: 'right' }, { title: 'frames > 50 ms', align: 'right' }, { title: 'long tasks', align: 'right' }],
          measured.flatMap(({ pace, figures }) => paceRows(pace, figures)),
        ),
        `   ${count(text.length)} characters of markdown, ${count(chunks)} agent_message_chunks per turn (real claude-agent-acp, scripted model server).`,
        '   Frame times: requestAnimationFrame deltas inside the page while streaming (headless Chromium, no GPU); long tasks from PerformanceObserver.',
        ...measured.map(({ pace, figures }) => agentCpuLine(pace, figures.agentCores)),
      ],
    };
  },
};
