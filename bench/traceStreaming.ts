/**
 * Where the browser's time goes while an agent floods the panel in real code-server: one warm-up
 * turn, then one turn of the streaming bench's markdown (the real Claude adapter on the scripted
 * model server, 12-character deltas as fast as the server writes) under Chromium tracing (CDP
 * Tracing, every process). Prints each busy thread's time by kind (script, style, layout, paint),
 * per main-thread frame, the forced layouts, and the frame gaps in the webview and the workbench;
 * writes the trace to test-results/streaming-trace.json (open it in DevTools' Performance panel).
 *
 *   npm run -s package && node --import tsx bench/traceStreaming.ts [characters, default 200000] [profile]
 *
 * With `profile`, the turn is sampled by the JavaScript profiler instead: self time by function.
 * With `cpu [turns]`, nothing is traced: each of `turns` turns (default 5) prints the CPU time
 * Chromium's renderer and GPU processes used over it (from /proc), its time and frame gaps, and
 * what the browser says held each frame over 50 ms. The turns are one conversation, which grows;
 * TANDEM_TRACE_TURN=n traces the n-th of them to test-results/turn-trace.json.
 * With `wire`, nothing is traced: what the browser receives on its sockets over the turn, by kind.
 * TANDEM_TRACE_PACE=5000 streams at that many deltas a second instead of a flood.
 *
 * A diagnostic, not a bench section: its figures are one traced turn (tracing slows it down).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Frame, Page } from 'playwright-core';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import type { ScriptedModelServer } from '../test/support/model-servers/script';
import { pickAgent, send, turnEnd } from '../test/support/panelUser';
import { claudeAgentSpec, REPO_ROOT } from '../test/support/real-agents';
import { openTandemWorkbench, tempWorkspace } from '../test/support/tandemWorkbench';
import { lastMessageEndsWith, startFrameProbe, stopFrameProbe, type FrameGaps } from './frameProbe';
import { browserCpuMs, browserMainThreadMs } from './processCpu';
import { distribution } from './figures';
import { minMedianMax } from './report';
import { CHUNK } from './rawAgent';
import { benchMarkdown, END_MARKER } from './streaming';
import { countWire } from './wireCount';
import { describeThreads, summarizeTrace, type TraceEvent } from './traceSummary';

/** The model's pace (TANDEM_TRACE_PACE deltas a second); unset: as fast as the server writes. */
const DELTAS_PER_SECOND = process.env['TANDEM_TRACE_PACE'] ? Number(process.env['TANDEM_TRACE_PACE']) : undefined;

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'toplevel', 'blink', 'cc', 'gpu', 'v8.execute', '__metadata'];

async function startTracing(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: CATEGORIES } });
  return async () => {
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    return events;
  };
}

/** The trace as test-results/`name`, for DevTools' Performance panel. */
function writeTrace(name: string, events: TraceEvent[]): void {
  const out = join(REPO_ROOT, 'test-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, name), JSON.stringify({ traceEvents: events }));
}

/** One turn of `text`; the prompt is the `turn`-th of the conversation. */
async function turn(panel: Frame, model: ScriptedModelServer, text: string, count: number): Promise<number> {
  model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: DELTAS_PER_SECOND });
  const started = Date.now();
  await send(panel, 'Write the long answer');
  // The answer before this one ends with the same marker: wait for this turn's own message first.
  await panel.locator('.agent-message').nth(count - 1).waitFor({ state: 'attached', timeout: 300_000 });
  await panel.waitForFunction(lastMessageEndsWith, END_MARKER, { timeout: 300_000, polling: 100 });
  const elapsed = Date.now() - started;
  const stop = await turnEnd(panel, count, 300_000);
  if (stop !== 'end_turn') throw new Error(`the traced turn ended with ${stop}`);
  return elapsed;
}

const gaps = (where: string, probe: FrameGaps) => `${where}: longest frame ${probe.maxFrameMs.toFixed(1)} ms, p99 ${probe.p99FrameMs.toFixed(1)} ms, ${probe.framesOver50} frames over 50 ms, ${probe.longTasks} long tasks; `
  + `the longest ended at ${probe.longest.map((frame) => `${frame.endedAt.toFixed(0)} ms (${frame.ms.toFixed(0)} ms)`).join(', ')} after the probe started`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Sampled JavaScript self time by function (the page's renderer runs the webview's frames too), largest first. */
async function profileSelfTimes(cdp: CDPSession, run: () => Promise<void>): Promise<string[]> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await run();
  const { profile } = await cdp.send('Profiler.stop');
  const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, index) => {
    const frame = nodes.get(id);
    const name = frame ? `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\//, '')}:${frame.lineNumber}` : '?';
    self.set(name, (self.get(name) ?? 0) + (deltas[index] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([name, time]) => `   ${time.toFixed(0).padStart(6)} ms  ${name}`);
}

const spread = (values: number[]) => minMedianMax(distribution(values, 'ms'), (value) => value.toFixed(0));

/** `turns` untraced turns; the renderer and GPU processes of this browser profile only. */
async function cpuTurns(panel: Frame, model: ScriptedModelServer, userDataDir: string, characters: number, turns: number, page: Page): Promise<void> {
  const cpu = (type: string) => browserCpuMs(userDataDir, type) ?? Number.NaN;
  const rows: { ms: number; renderer: number; gpu: number; gap: number }[] = [];
  for (let index = 0; index < turns; index++) {
    const [renderer, gpu, main] = [cpu('renderer'), cpu('gpu-process'), browserMainThreadMs(userDataDir, 'renderer')];
    await startFrameProbe(page);
    const traced = String(index + 1) === process.env['TANDEM_TRACE_TURN'] ? await startTracing(await page.context().newCDPSession(page)) : null;
    const ms = await turn(panel, model, benchMarkdown(characters), index + 2);
    if (traced) writeTrace('turn-trace.json', await traced());
    const probe = await stopFrameProbe(page);
    const gap = probe.maxFrameMs;
    rows.push({ ms, renderer: cpu('renderer') - renderer, gpu: cpu('gpu-process') - gpu, gap });
    const mainAfter = browserMainThreadMs(userDataDir, 'renderer');
    const mainThread = main && mainAfter ? `, renderer main thread ran ${(mainAfter.ranMs - main.ranMs).toFixed(0)} ms and waited for a CPU ${(mainAfter.waitedMs - main.waitedMs).toFixed(0)} ms` : '';
    console.log(`turn ${index + 1}: Enter -> last line ${ms} ms, renderer CPU ${rows[index]?.renderer.toFixed(0)} ms, GPU process CPU ${rows[index]?.gpu.toFixed(0)} ms${mainThread}, `
      + `longest frames ${probe.longest.map((frame) => `${frame.ms.toFixed(0)} ms ending ${frame.endedAt.toFixed(0)} ms after Enter`).join(', ')}`);
    for (const frame of probe.longFrames) {
      console.log(`   long frame ${frame.ms.toFixed(0)} ms from ${frame.startedAt.toFixed(0)} ms: script ${frame.scriptMs.toFixed(0)} ms (the panel ${frame.panelScriptMs.toFixed(0)} ms), style, layout and paint ${frame.renderMs.toFixed(0)} ms; ${frame.scripts.join('; ')}`);
    }
  }
  console.log(`min / median / max of ${turns}: Enter -> last line ${spread(rows.map((row) => row.ms))} ms, renderer CPU ${spread(rows.map((row) => row.renderer))} ms, `
    + `GPU process CPU ${spread(rows.map((row) => row.gpu))} ms, longest frame ${spread(rows.map((row) => row.gap))} ms`);
}

async function main(): Promise<void> {
  const characters = Number(process.argv[2] ?? 200_000);
  const profiling = process.argv[3] === 'profile';
  const model = await startClaudeModelServer();
  const where = tempWorkspace('trace-streaming');
  const claude = claudeAgentSpec(model.url, { cwd: where.workspace });
  const { ANTHROPIC_API_KEY, ...claudeEnv } = claude.env;
  const tandem = await openTandemWorkbench(where, {
    env: { ANTHROPIC_API_KEY: ANTHROPIC_API_KEY ?? 'test-key' },
    settings: { 'tandem.agents': { 'claude-code': { command: claude.command, args: claude.args, env: claudeEnv } } },
  });
  try {
    const { page, panel } = tandem;
    await pickAgent(panel, 'Claude Code');
    await turn(panel, model, benchMarkdown(20_000), 1);
    if (process.argv[3] === 'cpu') return await cpuTurns(panel, model, tandem.browser.userDataDir, characters, Number(process.argv[4] ?? 5), page);
    const cdp = await page.context().newCDPSession(page);
    let elapsed = 0;
    const measured = async () => {
      await startFrameProbe(page);
      await startFrameProbe(panel);
      elapsed = await turn(panel, model, benchMarkdown(characters), 2);
      console.log(gaps('webview', await stopFrameProbe(panel)));
      console.log(gaps('workbench', await stopFrameProbe(page)));
    };
    if (process.argv[3] === 'wire') return await countWire(page, measured);
    if (profiling) {
      const lines = await profileSelfTimes(cdp, measured);
      console.log(`${characters} characters streamed, Enter -> last line ${elapsed} ms (profiled); JavaScript self time by function:`, ...lines.map((line) => `\n${line}`));
      return;
    }
    const stopTracing = await startTracing(cdp);
    await measured();
    const events = await stopTracing();
    writeTrace('streaming-trace.json', events);
    console.log(`${characters} characters streamed, Enter -> last line ${elapsed} ms (traced)`);
    for (const line of describeThreads(summarizeTrace(events))) console.log(line);
  } finally {
    await tandem.close();
    claude.dispose();
    await model.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
