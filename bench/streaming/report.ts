/**
 * The streaming section's report: its figures read back per pace into tables and lines, for
 * code-server and for the Chromium harness.
 */
import os from 'node:os';
import type { Figure, Figures } from '../shared/figures';
import { minMedianMax, ms, ratio, table } from '../shared/report';
import { longFramesLine } from './longFrames';
import type { Pace } from './rawAgent';

const of = (figures: Figures, key: string): Figure => figures[key] ?? { value: Number.NaN, unit: 'ms' };
const spread = minMedianMax;

/** Where an environment's figures of a pace are, and what its Tandem time is called. */
const PLACES = {
  codeServer: { prefix: (pace: Pace) => `streaming.${pace.key}`, tandem: 'codeServerMs', vsRaw: 'codeServerVsRaw', gaps: ['webviewMaxFrameGapMs', 'workbenchMaxFrameGapMs'], over50: ['webviewFramesOver50', 'workbenchFramesOver50'] },
  harness: { prefix: (pace: Pace) => `streaming.harness.${pace.key}`, tandem: 'panelMs', vsRaw: 'vsRaw', gaps: ['maxFrameGapMs'], over50: ['framesOver50'] },
};

function rows(figures: Figures, paces: readonly Pace[], place: keyof typeof PLACES, tandemLabel: string): string[][] {
  const where = PLACES[place];
  return paces.map((pace) => {
    const at = (name: string) => of(figures, `${where.prefix(pace)}.${name}`);
    const vsRaw = at(where.vsRaw);
    return [pace.label, spread(at('rawMs'), ms), spread(at(where.tandem), ms), spread(vsRaw, ratio), String(vsRaw.runs ?? '-'),
      where.gaps.map((name) => ms(at(name).value)).join(' / '), where.over50.map((name) => String(at(name).value)).join(' / '), tandemLabel];
  });
}

/** Where each side's time goes: before the first token (the turn's start), and from it to the last. */
function firstTokenLine(figures: Figures, pace: Pace): string {
  const at = (name: string) => of(figures, `streaming.${pace.key}.${name}`).value;
  return `   ${pace.label}: first token raw ${ms(at('rawFirstTokenMs'))}, Tandem ${ms(at('codeServerFirstTokenMs'))}; first -> last raw ${ms(at('rawMs') - at('rawFirstTokenMs'))}, `
    + `Tandem ${ms(at('codeServerMs') - at('codeServerFirstTokenMs'))} (differences of medians).`;
}

/** After the model's last byte: the raw client's response, Tandem's last line on screen. */
function afterStreamLine(figures: Figures, pace: Pace): string {
  const raw = figures[`streaming.${pace.key}.rawAfterStreamMs`];
  const tandem = figures[`streaming.${pace.key}.codeServerAfterStreamMs`];
  if (!raw || !tandem) return `   ${pace.label}: the end of the model's stream was not recorded.`;
  return `   ${pace.label}: after the model server's last byte (min / median / max): the raw client's response ${spread(raw, ms)}, Tandem's last line in the DOM ${spread(tandem, ms)}.`;
}

/** Prompt -> the adapter's model request, then that request -> the first token seen, each side. */
function modelRequestLine(figures: Figures, pace: Pace): string {
  const raw = figures[`streaming.${pace.key}.rawModelRequestMs`];
  const tandem = figures[`streaming.${pace.key}.codeServerModelRequestMs`];
  if (!raw || !tandem) return `   ${pace.label}: the adapter's model requests were not recorded.`;
  const at = (name: string) => of(figures, `streaming.${pace.key}.${name}`).value;
  return `   ${pace.label}: the adapter's model request after the prompt (min / median / max): raw ${spread(raw, ms)}, Tandem (from Enter) ${spread(tandem, ms)}; `
    + `then the first token: raw ${ms(at('rawFirstTokenMs') - raw.value)}, Tandem ${ms(at('codeServerFirstTokenMs') - tandem.value)} (differences of medians).`;
}

/** The turns that measured frame gaps, beside the timed ones: what the probes themselves cost. */
function probedLine(figures: Figures, pace: Pace): string {
  const at = (name: string) => figures[`streaming.${pace.key}.${name}`];
  const [probed, timed, probedRenderer, timedRenderer] = ['probedMs', 'codeServerMs', 'cpu.probedRendererMs', 'cpu.rendererMs'].map(at);
  if (!probed || !timed) return `   ${pace.label}: no turns with the frame probes.`;
  const cpu = probedRenderer && timedRenderer ? `; Chromium renderer CPU ${ms(probedRenderer.value)} with them, ${ms(timedRenderer.value)} without` : '';
  return `   ${pace.label}: frame gaps from ${probed.runs ?? '?'} Tandem turns of their own with requestAnimationFrame probes in the webview and the workbench (medians: `
    + `Enter -> last line ${ms(probed.value)} with the probes, ${ms(timed.value)} in the timed turns without them${cpu}).`;
}

/** Each party's CPU per turn in code-server: the agent does the same work either way, the rest is what showing it costs. */
function cpuLine(figures: Figures, pace: Pace): string {
  const at = (name: string) => figures[`streaming.${pace.key}.cpu.${name}`];
  const [rawAgent, agent, host, renderer, gpu] = ['rawAgentMs', 'agentMs', 'hostMs', 'rendererMs', 'gpuMs'].map(at);
  if (!rawAgent || !agent || !host || !renderer || !gpu) return `   ${pace.label}: CPU per turn could not be read (no /proc).`;
  const [startAgent, startHost, startRenderer, startGpu] = ['start.agentMs', 'start.hostMs', 'start.rendererMs', 'start.gpuMs'].map(at);
  const start = startAgent && startHost && startRenderer && startGpu
    ? ` From just before Enter to the adapter's model request: the agent ${ms(startAgent.value)}, extension host + code-server ${ms(startHost.value)}, renderer ${ms(startRenderer.value)}, GPU process ${ms(startGpu.value)}.`
    : '';
  return `   ${pace.label}: CPU per turn (medians, /proc): the agent ${ms(rawAgent.value)} in a raw turn, ${ms(agent.value)} in a Tandem turn; `
    + `Tandem's side: extension host + code-server ${ms(host.value)}, Chromium renderer ${ms(renderer.value)}, GPU process ${ms(gpu.value)}.${start}`;
}

/** How long each timed prompt of code-server's rounds waited for both sides to be at rest. */
function restLine(figures: Figures, pace: Pace): string {
  const at = (name: string) => of(figures, `streaming.${pace.key}.${name}`);
  const missed = at('restMissed').value;
  return `   ${pace.label}: before each prompt, both sides at rest (at most 10 ms of CPU in 250 ms, /proc) after ${spread(at('restWaitMs'), ms)} (min / median / max)`
    + `${missed > 0 ? `; ${missed} of ${at('restWaitMs').runs ?? '?'} prompts went ahead still busy after 15 s` : ''}.`;
}

/** What the agent itself burnt while the raw client read its answer: the load the panel competes with. */
function agentCpuLines(figures: Figures, paces: readonly Pace[], place: keyof typeof PLACES): string[] {
  return paces.map((pace) => {
    const cores = figures[`${PLACES[place].prefix(pace)}.agentCores`];
    if (!cores) return `   ${pace.label}: the agent's CPU could not be read (no /proc).`;
    return `   ${pace.label}: the agent's process group used ${spread(cores, (value) => value.toFixed(2))} cores (min / median / max) of ${os.availableParallelism()} during the raw turns (/proc CPU time / wall time).`;
  });
}

const COLUMNS = [{ title: 'pace' }, { title: 'raw min / median / max', align: 'right' as const }, { title: 'Tandem min / median / max', align: 'right' as const },
  { title: 'Tandem / raw per round', align: 'right' as const }, { title: 'runs', align: 'right' as const }, { title: 'median max frame', align: 'right' as const },
  { title: 'worst frames > 50 ms', align: 'right' as const }, { title: 'Tandem timed' }];

/** The real editor's table and, per pace, where its time and CPU went. */
export function codeServerLines(figures: Figures, paces: readonly Pace[]): string[] {
  return [
    'Real code-server (packaged extension; Tandem timed in the webview from Enter to the last line in the document; frame gaps webview / workbench page, from turns of their own):',
    table(COLUMNS, rows(figures, paces, 'codeServer', 'Enter -> last line in the DOM')),
    ...paces.map((pace) => firstTokenLine(figures, pace)),
    ...paces.map((pace) => afterStreamLine(figures, pace)),
    ...paces.map((pace) => modelRequestLine(figures, pace)),
    ...paces.map((pace) => cpuLine(figures, pace)),
    ...paces.map((pace) => probedLine(figures, pace)),
    ...paces.map((pace) => longFramesLine(figures, pace)),
    ...paces.map((pace) => restLine(figures, pace)),
    ...agentCpuLines(figures, paces, 'codeServer'),
  ];
}

/** The Chromium harness's table and the agent's CPU during its raw turns. */
export function harnessLines(figures: Figures, paces: readonly Pace[]): string[] {
  return [
    'Chromium harness (Tandem\'s presenter in the bench process, the panel\'s real bundle and CSP, not code-server):',
    table(COLUMNS, rows(figures, paces, 'harness', 'prompt -> last line on screen')),
    ...agentCpuLines(figures, paces, 'harness'),
  ];
}
