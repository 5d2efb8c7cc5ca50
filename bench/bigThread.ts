/**
 * A thread of 2,000 tool calls in the panel (the real webview bundle in Chromium): the latency of
 * appending one more (message -> rendered frame), and the page's JS heap and DOM size for it.
 */
import { performance } from 'node:perf_hooks';
import type { ThreadEntry } from '../src/contract/viewModel';
import { openPanel } from '../test/support/panelHarness';
import { panelState, toolEntry } from '../test/support/panelFixtures';
import type { WorkbenchBrowser } from '../test/support/workbench';
import { PANEL_VIEWPORT } from './context';
import { distribution, prefixed, single, type Bench, type Figures } from './figures';
import { count, ms, table } from './report';
import { percentile } from './stats';

const TOOLS = 2_000;
/** Entries per threadDeltas message while loading, like the batches of a real turn. */
const LOAD_BATCH = 100;
const KINDS = ['read', 'edit', 'execute', 'search', 'fetch'] as const;

interface Variant {
  /** Figure key prefix under `bigThread`; the text-output thread is the plain one. */
  key: string | null;
  title: string;
  /** Every fifth call is a command whose output shows in a terminal pane (as agents report them). */
  terminalOutput: boolean;
}

const VARIANTS: Variant[] = [
  { key: null, title: 'output as text', terminalOutput: false },
  { key: 'terminalPanes', title: 'output in terminal panes', terminalOutput: true },
];

function threadEntry(i: number, terminalOutput: boolean): ThreadEntry {
  const kind = KINDS[i % KINDS.length];
  return toolEntry(`t${i}`, {
    title: `${kind} step ${i}`, toolKind: kind, status: 'completed',
    locations: [{ path: `/w/src/file${i}.ts`, line: i }], content: i % 5 === (terminalOutput ? 2 : 4) ? [{ type: 'text', text: `output of step ${i}` }] : [],
    rawInput: JSON.stringify({ path: `/w/src/file${i}.ts` }),
  });
}

interface Measured {
  figures: Figures;
  /** Tool calls of the thread that carry output. */
  withOutput: number;
}

/** The thread delivered as deltas in batches like a real turn, then single appends timed. */
async function measureThread(browser: WorkbenchBrowser, appends: number, terminalOutput: boolean): Promise<Measured> {
  const harness = await openPanel({ browser, viewport: PANEL_VIEWPORT });
  try {
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    const entries = Array.from({ length: TOOLS }, (_, i) => threadEntry(i, terminalOutput));
    const loadStarted = performance.now();
    for (let start = 0; start < TOOLS; start += LOAD_BATCH) {
      const deltas = entries.slice(start, start + LOAD_BATCH).map((entry) => ({ type: 'entryAdded' as const, entry }));
      await harness.post({ type: 'threadDeltas', deltas });
    }
    await harness.page.locator(`[data-entry-id="t${TOOLS - 1}"]`).waitFor({ state: 'attached', timeout: 120_000 });
    const loadMs = performance.now() - loadStarted;
    const appendMs: number[] = [];
    for (let i = TOOLS; i < TOOLS + appends; i++) {
      const delta = { type: 'threadDeltas' as const, deltas: [{ type: 'entryAdded' as const, entry: threadEntry(i, terminalOutput) }] };
      appendMs.push(await harness.page.evaluate<number>(`(async () => {
        const started = performance.now();
        window.postMessage(${JSON.stringify(delta)}, '*');
        await new Promise((resolve) => {
          const check = () => (document.querySelector('[data-entry-id="t${i}"]') ? requestAnimationFrame(() => resolve()) : setTimeout(check, 0));
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
    return {
      withOutput: entries.filter((entry) => entry.kind === 'toolCall' && entry.tool.content.length > 0).length,
      figures: {
        loadMs: single(loadMs, 'ms'),
        appendMs: distribution(appendMs, 'ms'),
        appendP95Ms: single(percentile(appendMs, 95), 'ms'),
        heapMB: single(heap.usedSize / 1024 / 1024, 'MB'),
        domNodes: single(domNodes, 'count'),
      },
    };
  } finally {
    await harness.close();
  }
}

function threadTable(measured: Measured[]): string {
  const row = (label: string, key: string, format: (value: number) => string) => [label, ...measured.map(({ figures }) => format(figures[key]?.value ?? Number.NaN))];
  return table(
    [{ title: 'figure' }, ...VARIANTS.map((variant) => ({ title: variant.title, align: 'right' as const }))],
    [
      row(`load as deltas (${LOAD_BATCH} per message)`, 'loadMs', ms),
      row('append one more: median (message -> rendered frame)', 'appendMs', ms),
      row('append one more: p95', 'appendP95Ms', ms),
      row('JS heap after GC', 'heapMB', (value) => `${value.toFixed(1)} MB`),
      row('DOM elements', 'domNodes', count),
    ],
  );
}

export const bigThreadBench: Bench = {
  name: 'bigThread',
  title: `Panel: a thread of ${count(TOOLS)} tool calls`,
  async run(context) {
    const browser = await context.browser();
    const appends = context.options.quick ? 10 : 30;
    context.progress(`thread of ${count(TOOLS)} tool calls (${VARIANTS.map((variant) => variant.title).join(', then ')})`);
    const measured: Measured[] = [];
    const figures: Figures = {};
    for (const variant of VARIANTS) {
      const thread = await measureThread(browser, appends, variant.terminalOutput);
      measured.push(thread);
      Object.assign(figures, prefixed(variant.key ? `bigThread.${variant.key}` : 'bigThread', thread.figures));
    }
    return {
      section: 'bigThread',
      figures,
      lines: [
        `A thread of ${count(TOOLS)} tool calls in the panel (${KINDS.join(', ')} in turn; ${measured.map((thread) => count(thread.withOutput)).join(' / ')} carry output)`,
        threadTable(measured),
      ],
    };
  },
};
