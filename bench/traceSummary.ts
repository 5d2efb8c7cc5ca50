/**
 * What a Chromium trace (CDP Tracing, devtools.timeline categories) says each thread spent its
 * time on: per thread, the busy time of its top-level tasks, and the self time of every event
 * name under them, grouped into script, style, layout, paint and other. A layout nested inside
 * script is a forced one (script read geometry after writing the DOM).
 */

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

export type WorkKind = 'script' | 'style' | 'layout' | 'paint' | 'other';

export interface ThreadSummary {
  pid: number;
  tid: number;
  thread: string;
  /** Frame URLs the browser placed in this thread's process. */
  urls: string[];
  busyMs: number;
  byKind: Record<WorkKind, number>;
  /** Self time by event name, largest first. */
  byName: [string, number][];
  /** Main-thread frames begun (BeginMainThreadFrame), forced layouts and their total time. */
  frames: number;
  forcedLayouts: number;
  forcedLayoutMs: number;
}

const TOP_LEVEL = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);
const KINDS: [WorkKind, RegExp][] = [
  ['style', /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|Document::updateStyle)/],
  ['layout', /^(Layout|UpdateLayout|LocalFrameView::layout)/],
  ['paint', /^(Paint|PrePaint|Layerize|PaintImage|UpdateLayer|CompositeLayers|Commit|RasterTask|Rasterize|Decode|LayerTreeHost|ProxyMain|cc::)/],
  ['script', /^(FunctionCall|EvaluateScript|EventDispatch|FireAnimationFrame|TimerFire|RunMicrotasks|v8|V8|MajorGC|MinorGC|ParseHTML|HTMLDocumentParser|CompileScript|CompileCode|BlinkGC)/],
];
const SCRIPT = /^(FunctionCall|EvaluateScript|EventDispatch|FireAnimationFrame|TimerFire|RunMicrotasks|v8\.|V8\.)/;

export function kindOf(name: string): WorkKind {
  return KINDS.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
}

type Complete = TraceEvent & { dur: number };

/** Complete events ('X') of one thread, parents before children. */
function completeEvents(events: readonly TraceEvent[]): Complete[] {
  return events.filter((event): event is Complete => event.ph === 'X' && typeof event.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
}

interface Open {
  event: Complete;
  end: number;
  childTime: number;
  inScript: boolean;
}

function emptyKinds(): Record<WorkKind, number> {
  return { script: 0, style: 0, layout: 0, paint: 0, other: 0 };
}

/** Self times of one thread's events (microseconds), with forced layouts counted. */
function selfTimes(events: TraceEvent[]): { byName: Map<string, number>; busy: number; frames: number; forced: number; forcedUs: number } {
  const byName = new Map<string, number>();
  const stack: Open[] = [];
  let busy = 0;
  let frames = 0;
  let forced = 0;
  let forcedUs = 0;
  const close = (open: Open) => byName.set(open.event.name, (byName.get(open.event.name) ?? 0) + Math.max(0, open.event.dur - open.childTime));
  for (const event of completeEvents(events)) {
    while (stack.length > 0 && (stack[stack.length - 1] as Open).end <= event.ts) close(stack.pop() as Open);
    const parent = stack[stack.length - 1];
    if (parent) parent.childTime += event.dur;
    else if (TOP_LEVEL.has(event.name)) busy += event.dur;
    if (event.name === 'BeginMainThreadFrame') frames++;
    const inScript = (parent?.inScript ?? false) || SCRIPT.test(event.name);
    if (event.name === 'Layout' && parent?.inScript) {
      forced++;
      forcedUs += event.dur;
    }
    stack.push({ event, end: event.ts + event.dur, childTime: 0, inScript });
  }
  while (stack.length > 0) close(stack.pop() as Open);
  return { byName, busy, frames, forced, forcedUs };
}

function threadNames(events: readonly TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name') names.set(`${event.pid}:${event.tid}`, String(event.args?.['name'] ?? ''));
  }
  return names;
}

/** Frame URLs per renderer process, from the browser's own trace events. */
function processUrls(events: readonly TraceEvent[]): Map<number, Set<string>> {
  const urls = new Map<number, Set<string>>();
  const add = (frame: unknown) => {
    const { processId, url } = (frame ?? {}) as { processId?: number; url?: string };
    if (typeof processId !== 'number' || !url) return;
    const set = urls.get(processId) ?? new Set<string>();
    set.add(url.replace(/\?.*$/, ''));
    urls.set(processId, set);
  };
  for (const event of events) {
    const data = event.args?.['data'] as { frames?: unknown[]; frame?: unknown } | undefined;
    if (event.name === 'TracingStartedInBrowser') data?.frames?.forEach(add);
    if (event.name === 'FrameCommittedInBrowser') add(data);
  }
  return urls;
}

/** Every thread that was busy, busiest first. */
export function summarizeTrace(events: readonly TraceEvent[]): ThreadSummary[] {
  const names = threadNames(events);
  const urls = processUrls(events);
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(event);
    byThread.set(key, list);
  }
  const summaries: ThreadSummary[] = [];
  for (const [key, list] of byThread) {
    const { byName, busy, frames, forced, forcedUs } = selfTimes(list);
    const byKind = emptyKinds();
    for (const [name, us] of byName) if (!TOP_LEVEL.has(name)) byKind[kindOf(name)] += us / 1000;
    const [pid, tid] = key.split(':').map(Number) as [number, number];
    summaries.push({
      pid, tid, thread: names.get(key) ?? '?', urls: [...(urls.get(pid) ?? [])], busyMs: busy / 1000, byKind,
      byName: [...byName].filter(([name]) => !TOP_LEVEL.has(name)).map(([name, us]): [string, number] => [name, us / 1000]).sort((a, b) => b[1] - a[1]),
      frames, forcedLayouts: forced, forcedLayoutMs: forcedUs / 1000,
    });
  }
  return summaries.filter((summary) => summary.busyMs > 0).sort((a, b) => b.busyMs - a.busyMs);
}

/** A few lines per thread: busy time, time by kind, per frame, and the heaviest event names. */
export function describeThreads(summaries: readonly ThreadSummary[], threads = 6, names = 12): string[] {
  const lines: string[] = [];
  for (const summary of summaries.slice(0, threads)) {
    const kinds = Object.entries(summary.byKind).map(([kind, value]) => `${kind} ${value.toFixed(0)}`).join(', ');
    const perFrame = summary.frames > 0 ? `; per main-thread frame ${(summary.busyMs / summary.frames).toFixed(2)} ms busy over ${summary.frames} frames` : '';
    lines.push(`${summary.thread} (pid ${summary.pid}${summary.urls.length > 0 ? `: ${summary.urls.slice(0, 3).join(', ')}` : ''}): busy ${summary.busyMs.toFixed(0)} ms (${kinds})${perFrame}`);
    if (summary.forcedLayouts > 0) lines.push(`   forced layouts (inside script): ${summary.forcedLayouts}, ${summary.forcedLayoutMs.toFixed(0)} ms`);
    lines.push(`   ${summary.byName.slice(0, names).map(([name, value]) => `${name} ${value.toFixed(0)}`).join(', ')}`);
  }
  return lines;
}
