/**
 * A thread of 2,000 tool calls in the panel (the real webview bundle in Chromium). Every time is
 * taken inside the page, from the `postMessage` that delivers the host's message to the end of
 * the first frame painted after the panel handled it (requestAnimationFrame, then a task queued
 * from it, which runs once that frame's style, layout and paint are done):
 * - append one more card, and beside it, alternated, the floor: a message that draws nothing, so
 *   the wait for the display's next frame (which no code can shorten) is measured in the same run;
 *   the same on a thread of a few cards, so what the thread's length adds shows apart from what
 *   any change of the panel costs (the frame's style, layout, paint and commit);
 * - load: a snapshot holding the whole thread (switching to its tab, reopening the panel), after
 *   an empty one, until its last card is painted;
 * - the page's JS heap after GC and its DOM size.
 */
import type { Page } from 'playwright-core';
import type { HostToWebview } from '../../src/contract/messages';
import type { ThreadEntry } from '../../src/contract/viewModel';
import { openPanel } from '../../test/support/panelHarness';
import { panelState, toolEntry } from '../../test/support/panelFixtures';
import type { WorkbenchBrowser } from '../../test/support/workbench';
import { PANEL_VIEWPORT } from '../shared/context';
import { distribution, prefixed, single, type Bench, type Figures } from '../shared/figures';
import { count, ms, table } from '../shared/report';
import { CONVERSATION_PROMPTS, measureCheckpointLists } from './checkpointList';
import { timedPosts } from './panelTiming';
import { median, percentile } from '../shared/stats';

const TOOLS = 2_000;
/** Entries per threadDeltas message while the thread is built, like the batches of a real turn. */
const LOAD_BATCH = 100;
const KINDS = ['read', 'edit', 'execute', 'search', 'fetch'] as const;
const FIRST_MESSAGE: ThreadEntry = { kind: 'user', id: 'u', text: 'go' };

interface Variant {
  /** Figure key prefix under `bigThread`; the text-output thread is the plain one. */
  key: string | null;
  title: string;
  /** Tool calls in the thread before the appends. */
  tools: number;
  /** Every fifth call is a command whose output shows in a terminal pane (as agents report them). */
  terminalOutput: boolean;
}

/** A thread of a few cards, timed the same way: what an append costs whatever the thread's length. */
const SHORT_THREAD = 10;

const VARIANTS: Variant[] = [
  { key: null, title: `${count(TOOLS)} calls, output as text`, tools: TOOLS, terminalOutput: false },
  { key: 'terminalPanes', title: `${count(TOOLS)} calls, output in terminal panes`, tools: TOOLS, terminalOutput: true },
  { key: 'shortThread', title: `${SHORT_THREAD} calls, output as text`, tools: SHORT_THREAD, terminalOutput: false },
];

function threadEntry(i: number, terminalOutput: boolean): ThreadEntry {
  const kind = KINDS[i % KINDS.length];
  return toolEntry(`t${i}`, {
    title: `${kind} step ${i}`, toolKind: kind, status: 'completed',
    locations: [{ path: `/w/src/file${i}.ts`, line: i }], content: i % 5 === (terminalOutput ? 2 : 4) ? [{ type: 'text', text: `output of step ${i}` }] : [],
    rawInput: JSON.stringify({ path: `/w/src/file${i}.ts` }),
  });
}

const entrySelector = (id: string) => `[data-entry-id="${id}"]`;
const deltasMessage = (entries: ThreadEntry[]): HostToWebview => ({ type: 'threadDeltas', deltas: entries.map((entry) => ({ type: 'entryAdded', entry })) });

interface Measured {
  figures: Figures;
  /** Tool calls of the thread that carry output. */
  withOutput: number;
  snapshotBytes: number;
}

interface Samples {
  appendMs: number[];
  floorMs: number[];
  loadMs: number[];
}

/** One more card and a message that draws nothing, in turn, the order swapped every round. */
async function measureAppends(page: Page, entries: ThreadEntry[], appends: number, terminalOutput: boolean, samples: Samples): Promise<void> {
  const nothing: HostToWebview = { type: 'threadDeltas', deltas: [] };
  for (let round = 0; round < appends; round++) {
    const entry = threadEntry(entries.length - 1, terminalOutput);
    entries.push(entry);
    const append = () => timedPosts(page, [deltasMessage([entry])], entrySelector(entry.id));
    if (round % 2 === 0) {
      samples.appendMs.push(await append());
      samples.floorMs.push(await timedPosts(page, [nothing], null));
    } else {
      samples.floorMs.push(await timedPosts(page, [nothing], null));
      samples.appendMs.push(await append());
    }
  }
}

/** The whole thread as one snapshot after an empty one: what opening its tab or the panel costs. */
async function measureLoads(page: Page, entries: ThreadEntry[], runs: number, samples: Samples): Promise<number> {
  const full: HostToWebview = { type: 'snapshot', state: panelState(entries) };
  const empty: HostToWebview = { type: 'snapshot', state: panelState([FIRST_MESSAGE]) };
  const last = entries[entries.length - 1] as ThreadEntry;
  for (let run = 0; run < runs; run++) {
    await timedPosts(page, [empty], entrySelector(FIRST_MESSAGE.id));
    samples.loadMs.push(await timedPosts(page, [full], entrySelector(last.id)));
  }
  return JSON.stringify(full).length;
}

async function heapAndDom(page: Page): Promise<Figures> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    return { heapMB: single(heap.usedSize / 1024 / 1024, 'MB'), domNodes: single(domNodes, 'count') };
  } finally {
    await cdp.detach();
  }
}

/** The thread built as deltas in batches like a real turn, then appends, heap, and loads as snapshots. */
async function measureThread(browser: WorkbenchBrowser, appends: number, loads: number, { tools, terminalOutput }: Variant): Promise<Measured> {
  const harness = await openPanel({ browser, viewport: PANEL_VIEWPORT });
  try {
    const { page } = harness;
    await timedPosts(page, [{ type: 'snapshot', state: panelState([FIRST_MESSAGE]) }], entrySelector(FIRST_MESSAGE.id));
    const entries = [FIRST_MESSAGE, ...Array.from({ length: tools }, (_, i) => threadEntry(i, terminalOutput))];
    const batches: HostToWebview[] = [];
    for (let start = 1; start < entries.length; start += LOAD_BATCH) batches.push(deltasMessage(entries.slice(start, start + LOAD_BATCH)));
    const streamedLoadMs = await timedPosts(page, batches, entrySelector(`t${tools - 1}`));
    const samples: Samples = { appendMs: [], floorMs: [], loadMs: [] };
    await measureAppends(page, entries, appends, terminalOutput, samples);
    const memory = await heapAndDom(page);
    const snapshotBytes = await measureLoads(page, entries, loads, samples);
    if (harness.pageErrors.length > 0) throw new Error(`bigThread: the panel reported errors: ${harness.pageErrors.join('; ')}`);
    return {
      withOutput: entries.filter((entry) => entry.kind === 'toolCall' && entry.tool.content.length > 0).length,
      snapshotBytes,
      figures: {
        loadMs: distribution(samples.loadMs, 'ms'),
        streamedLoadMs: single(streamedLoadMs, 'ms'),
        appendMs: distribution(samples.appendMs, 'ms'),
        appendP95Ms: single(percentile(samples.appendMs, 95), 'ms'),
        frameFloorMs: distribution(samples.floorMs, 'ms'),
        frameFloorP95Ms: single(percentile(samples.floorMs, 95), 'ms'),
        appendAboveFloorMs: single(median(samples.appendMs) - median(samples.floorMs), 'ms'),
        ...memory,
      },
    };
  } finally {
    await harness.close();
  }
}

const spread = (figure: Figures[string] | undefined) => (figure?.min === undefined ? ms(figure?.value ?? Number.NaN) : `${ms(figure.min)} / ${ms(figure.value)} / ${ms(figure.max ?? Number.NaN)}`);

function threadTable(measured: Measured[], appends: number, loads: number): string {
  const row = (label: string, format: (figures: Figures, thread: Measured) => string) => [label, ...measured.map((thread) => format(thread.figures, thread))];
  return table(
    [{ title: 'figure' }, ...VARIANTS.map((variant) => ({ title: variant.title, align: 'right' as const }))],
    [
      row(`load as one snapshot, min / median / max of ${loads}`, (figures) => spread(figures.loadMs)),
      row('snapshot size (JSON)', (_figures, thread) => `${(thread.snapshotBytes / 1024).toFixed(0)} KB`),
      row(`built as deltas (${LOAD_BATCH} per message, posted back to back)`, (figures) => ms(figures.streamedLoadMs?.value ?? Number.NaN)),
      row(`append one more, min / median / max of ${appends}`, (figures) => spread(figures.appendMs)),
      row('append one more: p95', (figures) => ms(figures.appendP95Ms?.value ?? Number.NaN)),
      row('floor (message drawing nothing), min / median / max', (figures) => spread(figures.frameFloorMs)),
      row('floor: p95', (figures) => ms(figures.frameFloorP95Ms?.value ?? Number.NaN)),
      row('append above the floor (medians)', (figures) => ms(figures.appendAboveFloorMs?.value ?? Number.NaN)),
      row('JS heap after GC', (figures) => `${(figures.heapMB?.value ?? Number.NaN).toFixed(1)} MB`),
      row('DOM elements', (figures) => count(figures.domNodes?.value ?? Number.NaN)),
    ],
  );
}

export const bigThreadBench: Bench = {
  name: 'bigThread',
  title: `Panel: a thread of ${count(TOOLS)} tool calls`,
  async run(context) {
    const browser = await context.browser();
    const appends = context.options.quick ? 20 : 60;
    const loads = 5;
    context.progress(`threads of tool calls (${VARIANTS.map((variant) => variant.title).join(', then ')})`);
    const measured: Measured[] = [];
    const figures: Figures = {};
    for (const variant of VARIANTS) {
      const thread = await measureThread(browser, appends, loads, variant);
      measured.push(thread);
      Object.assign(figures, prefixed(variant.key ? `bigThread.${variant.key}` : 'bigThread', thread.figures));
    }
    context.progress(`a conversation of ${count(CONVERSATION_PROMPTS)} prompts: the checkpoint list each new prompt brings`);
    const lists = await measureCheckpointLists(browser, appends);
    Object.assign(figures, prefixed('bigThread', lists));
    return {
      section: 'bigThread',
      figures,
      lines: [
        `A thread of ${count(TOOLS)} tool calls in the panel (${KINDS.join(', ')} in turn; ${measured.map((thread) => count(thread.withOutput)).join(' / ')} carry output)`,
        'times: postMessage in the page -> the panel handled it -> the next frame painted',
        threadTable(measured, appends, loads),
        `A conversation of ${count(CONVERSATION_PROMPTS)} prompts: a new prompt's checkpoint list (every message's state, the newest's "Restore to here" drawn), min / median / max of ${appends}: `
          + `${spread(lists.checkpointListMs)}; the floor beside it: ${spread(lists.checkpointListFloorMs)}`,
      ],
    };
  },
};
