/**
 * Panel figures (`runStreamingBench`, called by bench/run.ts; or `node --import tsx bench/streaming.ts [--quick]`):
 *
 *   1. Streaming: a 200 KB markdown answer from the real Claude adapter (scripted model server,
 *      12-character deltas: about 17,000 agent_message_chunks). "Raw": a bare NDJSON client,
 *      session/prompt sent -> answer received. "Panel": Tandem's presenter with the panel's
 *      real webview bundle in Chromium (the harness the browser tests use, not code-server):
 *      prompt sent -> the last character is on screen. Frame times are requestAnimationFrame
 *      deltas and long tasks measured inside the page while it streams.
 *      Two paces: the model streaming 5,000 deltas a second (a raw turn of 3-4 s, the pace the
 *      target was set for; real models are far slower), and a flood as fast as the server can
 *      write, where the agent's two processes alone keep both of this machine's cores busy and
 *      every other process (Tandem's host, Chromium) takes its time from them.
 *   2. A thread of 2,000 tool calls: the latency of appending one more (message -> rendered
 *      frame), the page's JS heap and DOM size for that thread.
 *   3. The webview bundle's size.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { FrameStore } from '../src/acp/frames';
import type { ThreadEntry } from '../src/contract/viewModel';
import { ChatPresenter } from '../src/panel/chatPresenter';
import { silentLogger } from '../src/util/logger';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import type { ScriptedModelServer } from '../test/support/model-servers/script';
import { openPanel, type PanelHarness } from '../test/support/panelHarness';
import { panelState, toolEntry } from '../test/support/panelFixtures';
import { RawNdjsonClient } from '../test/support/raw-ndjson-client';
import { claudeAgentSpec } from '../test/support/real-agents';
import { definitionFromSpec } from '../test/support/realAgentDefinitions';
import { repoRoot } from '../test/support/scriptedAgentSpec';
import { launchBrowser, type WorkbenchBrowser } from '../test/support/workbench';
import { count, ms, ratio, table } from './report';
import { median, percentile, round } from './stats';

const progress = (line: string) => process.stderr.write(`${line}\n`);
const END_MARKER = 'END-OF-STREAMING-BENCH';
const CHUNK = 12;

interface Pace {
  label: string;
  deltasPerSecond?: number;
}

const PACES: Pace[] = [
  { label: 'model pace: 5,000 deltas/s', deltasPerSecond: 5_000 },
  { label: 'flood: as fast as the server writes' },
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

async function rawTurn(model: ScriptedModelServer, text: string, pace: Pace): Promise<number> {
  const spec = claudeAgentSpec(model.url);
  const client = RawNdjsonClient.spawn(spec, { requestTimeoutMs: 120_000 });
  try {
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'bench', version: '1' } });
    const session = await client.request<{ sessionId: string }>('session/new', { cwd: spec.cwd, mcpServers: [] });
    model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: pace.deltasPerSecond });
    const started = performance.now();
    await client.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Write the long answer' }] }, 300_000);
    return performance.now() - started;
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
  const harness = await openPanel({ browser, viewport: { width: 560, height: 900 } });
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

interface BigThread {
  tools: number;
  terminalOutput: boolean;
  appendMs: number[];
  heapMb: number;
  domNodes: number;
  loadMs: number;
}

/** A thread of `tools` tool calls, delivered as deltas in batches like a real turn, then single appends timed. */
/** `terminalOutput`: every fifth call is a command whose output shows in a terminal pane (as agents report them). */
async function bigThread(browser: WorkbenchBrowser, tools: number, appends: number, terminalOutput: boolean): Promise<BigThread> {
  const harness = await openPanel({ browser, viewport: { width: 560, height: 900 } });
  try {
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    const kinds = ['read', 'edit', 'execute', 'search', 'fetch'] as const;
    const entry = (i: number): ThreadEntry => toolEntry(`t${i}`, {
      title: `${kinds[i % kinds.length]} step ${i}`, toolKind: kinds[i % kinds.length], status: 'completed',
      locations: [{ path: `/w/src/file${i}.ts`, line: i }], content: i % 5 === (terminalOutput ? 2 : 4) ? [{ type: 'text', text: `output of step ${i}` }] : [],
      rawInput: JSON.stringify({ path: `/w/src/file${i}.ts` }),
    });
    const loadStarted = performance.now();
    for (let start = 0; start < tools; start += 100) {
      const deltas = Array.from({ length: Math.min(100, tools - start) }, (_, k) => ({ type: 'entryAdded' as const, entry: entry(start + k) }));
      await harness.post({ type: 'threadDeltas', deltas });
    }
    await harness.page.locator(`[data-entry-id="t${tools - 1}"]`).waitFor({ state: 'attached', timeout: 120_000 });
    const loadMs = performance.now() - loadStarted;
    const appendMs: number[] = [];
    for (let i = 0; i < appends; i++) {
      const delta = { type: 'threadDeltas' as const, deltas: [{ type: 'entryAdded' as const, entry: entry(tools + i) }] };
      appendMs.push(await harness.page.evaluate<number>(`(async () => {
        const started = performance.now();
        window.postMessage(${JSON.stringify(delta)}, '*');
        await new Promise((resolve) => {
          const check = () => (document.querySelector('[data-entry-id="t${tools + i}"]') ? requestAnimationFrame(() => resolve()) : setTimeout(check, 0));
          check();
        });
        return performance.now() - started;
      })()`));
    }
    const cdp = await harness.page.context().newCDPSession(harness.page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const domNodes = await harness.page.evaluate(() => document.getElementsByTagName('*').length);
    await cdp.detach();
    return { tools, terminalOutput, appendMs, heapMb: heap.usedSize / 1024 / 1024, domNodes, loadMs };
  } finally {
    await harness.close();
  }
}

function bundleSizes(): { file: string; bytes: number; gzipBytes: number }[] {
  return ['webview.js', 'webview.css', 'extension.js'].map((file) => {
    const full = path.join(repoRoot, 'dist', file);
    return { file, bytes: statSync(full).size, gzipBytes: gzipSync(readFileSync(full)).length };
  });
}

interface PaceFigures {
  pace: Pace;
  raw: number[];
  panel: PanelTurn[];
}

function paceRows(figures: PaceFigures): string[][] {
  const rawMedian = median(figures.raw);
  const panelMedian = median(figures.panel.map((turn) => turn.ms));
  const runs = String(figures.raw.length);
  return [
    [`${figures.pace.label}: raw NDJSON client, prompt -> answer`, ms(rawMedian), runs, '1.00x', '-', '-', '-', '-'],
    [`${figures.pace.label}: Tandem panel, prompt -> last character shown`, ms(panelMedian), runs, ratio(panelMedian / rawMedian),
      ms(Math.max(...figures.panel.map((turn) => turn.maxFrameMs))), ms(median(figures.panel.map((turn) => turn.p99FrameMs))),
      String(Math.max(...figures.panel.map((turn) => turn.framesOver50))), String(Math.max(...figures.panel.map((turn) => turn.longTasks)))],
  ];
}

function paceJson(figures: PaceFigures): Record<string, unknown> {
  const panelMs = figures.panel.map((turn) => turn.ms);
  return {
    deltasPerSecond: figures.pace.deltasPerSecond ?? null, rawMs: figures.raw.map((value) => round(value)), panelMs: panelMs.map((value) => round(value)),
    ratio: round(median(panelMs) / median(figures.raw), 3), maxFrameMs: round(Math.max(...figures.panel.map((turn) => turn.maxFrameMs))),
    p99FrameMs: figures.panel.map((turn) => round(turn.p99FrameMs)), framesOver50: figures.panel.map((turn) => turn.framesOver50),
    longTasks: figures.panel.map((turn) => turn.longTasks), chunks: figures.panel.map((turn) => turn.chunks),
  };
}

export async function runStreamingBench(options: { quick: boolean }): Promise<void> {
  const bytes = options.quick ? 50_000 : 200_000;
  const runs = options.quick ? 1 : 3;
  const text = benchMarkdown(bytes);
  const browser = await launchBrowser({ viewport: { width: 560, height: 900 } });
  const model = await startClaudeModelServer();
  const paces: PaceFigures[] = PACES.map((pace) => ({ pace, raw: [], panel: [] }));
  const threads: BigThread[] = [];
  try {
    progress(`streaming: ${count(text.length)} characters in ${CHUNK}-character deltas, ${runs} interleaved runs per pace after a warm-up turn`);
    // Like the other sections: one turn first, so Chromium's first load and compile of the bundle is not counted.
    const warmUp = benchMarkdown(20_000);
    await rawTurn(model, warmUp, PACES[0] as Pace);
    await panelTurn(model, browser, warmUp, PACES[0] as Pace);
    for (const figures of paces) {
      for (let run = 0; run < runs; run++) {
        const raw = await rawTurn(model, text, figures.pace);
        const panel = await panelTurn(model, browser, text, figures.pace);
        figures.raw.push(raw);
        figures.panel.push(panel);
        progress(`  ${figures.pace.label}, run ${run + 1}/${runs}: raw ${ms(raw)}, panel ${ms(panel.ms)} (max frame ${ms(panel.maxFrameMs)}, ${panel.chunks} chunks)`);
      }
    }
    progress('thread of 2,000 tool calls (text output only, then command output in terminal panes)');
    threads.push(await bigThread(browser, 2_000, options.quick ? 10 : 30, false));
    threads.push(await bigThread(browser, 2_000, options.quick ? 10 : 30, true));
  } finally {
    await model.close();
    await browser.close();
  }
  const sizes = bundleSizes();
  const out: string[] = [];
  out.push(`Streaming into the real webview bundle (Chromium harness with the panel's CSP; not code-server)`);
  out.push(table(
    [{ title: 'path' }, { title: 'median', align: 'right' }, { title: 'runs', align: 'right' }, { title: 'vs raw', align: 'right' }, { title: 'max frame', align: 'right' }, { title: 'p99 frame', align: 'right' }, { title: 'frames > 50 ms', align: 'right' }, { title: 'long tasks', align: 'right' }],
    paces.flatMap(paceRows),
  ));
  out.push(`   ${count(text.length)} characters of markdown, ${count(median(paces.flatMap((figures) => figures.panel.map((turn) => turn.chunks))))} agent_message_chunks per turn (real claude-agent-acp, scripted model server).`);
  out.push('   Frame times: requestAnimationFrame deltas inside the page while streaming (headless Chromium, no GPU); long tasks from PerformanceObserver.');
  out.push('   The flood is CPU-bound on 2 cores: the agent (adapter + Claude Code) alone needs about 1.6 cores, so the panel\'s rendering competes with it.');
  if (threads.length > 0) {
    out.push(`\nA thread of 2,000 tool calls in the panel (read, edit, execute, search, fetch in turn; 400 carry output)`);
    out.push(table(
      [{ title: 'figure' }, ...threads.map((thread) => ({ title: thread.terminalOutput ? 'output in terminal panes' : 'output as text', align: 'right' as const }))],
      [
        ['load as deltas (100 per message)', ...threads.map((thread) => ms(thread.loadMs))],
        ['append one more: median (message -> rendered frame)', ...threads.map((thread) => ms(median(thread.appendMs)))],
        ['append one more: p95', ...threads.map((thread) => ms(percentile(thread.appendMs, 95)))],
        ['JS heap after GC', ...threads.map((thread) => `${thread.heapMb.toFixed(1)} MB`)],
        ['DOM elements', ...threads.map((thread) => count(thread.domNodes))],
      ],
    ));
  }
  out.push('\nBundle sizes (production build in dist/)');
  out.push(table([{ title: 'file' }, { title: 'bytes', align: 'right' }, { title: 'gzip', align: 'right' }], sizes.map((size) => [size.file, count(size.bytes), count(size.gzipBytes)])));
  process.stdout.write(`${out.join('\n')}\n`);
  process.stdout.write(`BENCH_JSON ${JSON.stringify({
    streaming: { characters: text.length, chunkSize: CHUNK, paces: paces.map(paceJson) },
    bigThread: threads.map((thread) => ({ tools: thread.tools, terminalOutput: thread.terminalOutput, loadMs: round(thread.loadMs), appendMedianMs: round(median(thread.appendMs)),
      appendP95Ms: round(percentile(thread.appendMs, 95)), heapMb: round(thread.heapMb, 1), domNodes: thread.domNodes })),
    bundle: sizes,
  })}\n`);
}

if (require.main === module) {
  runStreamingBench({ quick: process.argv.includes('--quick') }).then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`streaming bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
