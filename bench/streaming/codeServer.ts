/**
 * Streaming in the real editor: the packaged extension in code-server, Chromium on the workbench,
 * the real Claude adapter started by the extension (as a user's settings configure it) on the
 * scripted model server. A turn is timed inside the panel's webview frame, from the Enter key that
 * sends the prompt to the mutation that puts the answer's last line in the document; frame gaps
 * are measured in the webview frame and in the workbench page at the same time, in turns of their
 * own (the probes cost the renderer a frame every vsync, kept out of the timed turns). Every turn runs
 * in a new conversation tab (the tab before it is closed), as each raw turn has a session of its own.
 */
import type { Frame } from 'playwright-core';
import type { ScriptedModelServer } from '../../test/support/model-servers/script';
import { openNewTab, pickAgent, pickedAgent, send, turnEnd } from '../../test/support/panelUser';
import { claudeAgentSpec } from '../../test/support/real-agents';
import { openTandemWorkbench, tempWorkspace, type TandemWorkbench } from '../../test/support/tandemWorkbench';
import { screenshot } from '../../test/support/workbench';
import { expectLastLineInView, lastMessageEndsWith, startFrameProbe, stopFrameProbe, type FrameGaps } from './frameProbe';
import { browserCpuMs, childGroup, codeServerProcesses, processGroupCpuMs, sumOfCpu } from '../shared/processCpu';
import { afterStream, modelRequestAfter, type BeforePrompt, type Pace } from './rawAgent';
import { CHUNK } from '../shared/streamedAnswer';

const AGENT_ID = 'claude-code';
const AGENT_LABEL = 'Claude Code';
const TURN_TIMEOUT_MS = 300_000;

export interface CodeServerTurn {
  /** Enter pressed in the composer -> the answer's last line in the panel's document (webview clock). */
  ms: number;
  /** Enter pressed -> the answer's first text in the panel's document. */
  firstTokenMs: number;
  /** The model server's last byte of the answer -> its last line in the panel's document (one machine, one clock). */
  afterStreamMs: number | null;
  /** Enter pressed -> the adapter's request for the answer reached the model server (one machine, one clock). */
  modelRequestMs: number | null;
  /** Animation-frame gaps in the webview and the workbench page, in a turn run with the frame probes; null in a timed turn. */
  frames: { webview: FrameGaps; workbench: FrameGaps } | null;
  /** CPU time over the turn (Enter to the last line) by whose it is, from /proc; null where /proc is missing. */
  cpu: TurnCpu | null;
  /** CPU time from just before Enter until the adapter's model request reached the model server, by party; null where /proc is missing. */
  startCpu: TurnCpu | null;
}

/** The CPU meters read as soon as the model server records one more request than now (polled every 2 ms), or null after `timeoutMs`. */
async function cpuAtNextRequest(model: ScriptedModelServer, meters: CpuMeters, timeoutMs: number): Promise<TurnCpu | null> {
  const seen = model.requests.length;
  const deadline = Date.now() + timeoutMs;
  while (model.requests.length === seen) {
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return meters.read();
}

/** Milliseconds of CPU a Tandem turn cost each party. */
export interface TurnCpu {
  /** The adapter's process group: the same work a raw turn asks of it. */
  agentMs: number;
  /** code-server's group: the extension host (Tandem's host side) and the server relaying its messages. */
  hostMs: number;
  /** Chromium's renderer processes: the workbench and the panel's webview. */
  rendererMs: number;
  /** Chromium's GPU process: compositing the frames (in software here). */
  gpuMs: number;
}

/** Where a turn's CPU is read: the code-server's group, the browser's profile, the adapter's group. */
interface CpuMeters {
  read(): TurnCpu | null;
  /** All of them together so far, the adapter counted once it has started; null where /proc is missing. */
  total(): number | null;
}

function cpuMeters(tandem: TandemWorkbench, agentArgument: string): CpuMeters {
  const server = codeServerProcesses(tandem.server.userDataDir);
  const browser = (type: string) => browserCpuMs(tandem.browser.userDataDir, type);
  return {
    read() {
      // The adapter is started with the first conversation; one process serves every tab after it.
      const agentGroup = childGroup(server.extensionHost, agentArgument);
      const [agentMs, hostMs, rendererMs, gpuMs] = [agentGroup === null ? null : processGroupCpuMs(agentGroup), processGroupCpuMs(server.group), browser('renderer'), browser('gpu-process')];
      if (agentMs === null || hostMs === null || rendererMs === null || gpuMs === null) return null;
      return { agentMs, hostMs, rendererMs, gpuMs };
    },
    total() {
      const agentGroup = childGroup(server.extensionHost, agentArgument);
      return sumOfCpu(agentGroup === null ? 0 : processGroupCpuMs(agentGroup), processGroupCpuMs(server.group), browser('renderer'), browser('gpu-process'));
    },
  };
}

const cpuSpent = (before: TurnCpu | null, after: TurnCpu | null): TurnCpu | null => before && after && {
  agentMs: after.agentMs - before.agentMs, hostMs: after.hostMs - before.hostMs, rendererMs: after.rendererMs - before.rendererMs, gpuMs: after.gpuMs - before.gpuMs,
};

export interface TurnOptions {
  beforePrompt?: BeforePrompt;
  /**
   * Runs requestAnimationFrame probes in the webview and the workbench page to measure frame
   * gaps. They make both documents run a frame every vsync, which costs the renderer CPU the
   * product does not spend: a turn timed against the raw client runs without them.
   */
  probeFrames?: boolean;
}

export interface CodeServerStreaming {
  /** The editor the turns run in (a profiler finds the server's processes and the panel here). */
  workbench: TandemWorkbench;
  turn(text: string, pace: Pace, marker: string, options?: TurnOptions): Promise<CodeServerTurn>;
  /** CPU used so far by the adapter, code-server and Chromium, in milliseconds; null where /proc is missing. */
  cpuMs(): number | null;
  close(): Promise<void>;
}

/**
 * Set in the webview frame before a turn: the time of the Enter key (capture phase, before the
 * composer sees it), of the first mutation that shows an agent message, and of the first after
 * which the newest message ends with the marker.
 */
function turnProbe(marker: string): string {
  return `(() => {
    const probe = { enterAt: null, firstAt: null, shownAt: null };
    window.__turnProbe = probe;
    const onKey = (event) => {
      if (event.key === 'Enter' && probe.enterAt === null) probe.enterAt = performance.now();
    };
    window.addEventListener('keydown', onKey, true);
    const observer = new MutationObserver(() => {
      if (probe.enterAt === null) return;
      if (probe.firstAt === null && document.querySelector('.agent-message')) probe.firstAt = performance.now();
      if (!(${lastMessageEndsWith.toString()})(${JSON.stringify(marker)})) return;
      probe.shownAt = performance.now();
      observer.disconnect();
      window.removeEventListener('keydown', onKey, true);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`;
}

/** A new conversation with the adapter, ready for a prompt; the previous tab is closed so its session ends. */
async function freshConversation(panel: Frame, first: boolean): Promise<void> {
  if (first) return pickAgent(panel, AGENT_LABEL);
  const previous = await panel.locator('#tabs-bar .tab.active').getAttribute('data-tab-id');
  await openNewTab(panel);
  if ((await pickedAgent(panel)) !== AGENT_ID) await pickAgent(panel, AGENT_LABEL);
  else await panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
  const old = panel.locator(`#tabs-bar .tab[data-tab-id="${previous}"]`);
  // An inactive tab shows its close button on hover, as for a user's pointer.
  await old.hover();
  await old.locator('.tab-close').click();
  await old.waitFor({ state: 'detached', timeout: 15_000 });
}

async function tandemTurn(tandem: TandemWorkbench, meters: CpuMeters, model: ScriptedModelServer, text: string, pace: Pace, marker: string, options: TurnOptions): Promise<CodeServerTurn> {
  const { page, panel } = tandem;
  await options.beforePrompt?.();
  await panel.evaluate(turnProbe(marker));
  if (options.probeFrames) {
    await startFrameProbe(page);
    await startFrameProbe(panel);
  }
  model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: pace.deltasPerSecond });
  const cpuBefore = meters.read();
  const atRequest = cpuAtNextRequest(model, meters, TURN_TIMEOUT_MS);
  await send(panel, 'Write the long answer');
  // A function, not a string: the panel's CSP forbids eval, which a string predicate needs.
  await panel.waitForFunction(() => (window as unknown as { __turnProbe: { shownAt: number | null } }).__turnProbe.shownAt !== null, undefined, { timeout: TURN_TIMEOUT_MS, polling: 100 });
  const cpu = cpuSpent(cpuBefore, meters.read());
  await expectLastLineInView(panel, marker);
  const frames = options.probeFrames ? { webview: await stopFrameProbe(panel), workbench: await stopFrameProbe(page) } : null;
  const { enterAt, firstAt, shownAt, origin } = await panel.evaluate('({ ...window.__turnProbe, origin: performance.timeOrigin })') as { enterAt: number; firstAt: number; shownAt: number; origin: number };
  const stop = await turnEnd(panel, 1, TURN_TIMEOUT_MS);
  if (stop !== 'end_turn') throw new Error(`streaming bench: the code-server turn ended with ${stop}, not end_turn`);
  return { ms: shownAt - enterAt, firstTokenMs: firstAt - enterAt, afterStreamMs: afterStream(model, origin + shownAt), modelRequestMs: modelRequestAfter(model, origin + enterAt), frames, cpu, startCpu: cpuSpent(cpuBefore, await atRequest) };
}

/**
 * code-server with the packaged extension (`vsix`, or dist/tandem.vsix) and the adapter configured as a user would, the panel on the adapter;
 * `settings`: the user's other settings (e.g. `tandem.agentPriority`), in settings.json as a user saves them.
 */
export async function openCodeServerStreaming(model: ScriptedModelServer, vsix?: string, settings: Record<string, unknown> = {}): Promise<CodeServerStreaming> {
  const where = tempWorkspace('bench-streaming');
  const claude = claudeAgentSpec(model.url, { cwd: where.workspace });
  const { ANTHROPIC_API_KEY, ...claudeEnv } = claude.env;
  let tandem: TandemWorkbench | undefined;
  const close = async () => {
    await tandem?.close();
    tandem = undefined;
    claude.dispose();
  };
  try {
    tandem = await openTandemWorkbench(where, {
      // The key comes from the environment, as the README tells users to keep it.
      env: { ANTHROPIC_API_KEY: ANTHROPIC_API_KEY ?? 'test-key' },
      ...(vsix ? { vsix } : {}),
      settings: { ...settings, 'tandem.agents': { [AGENT_ID]: { command: claude.command, args: claude.args, env: claudeEnv } } },
    });
  } catch (error) {
    await close();
    throw error;
  }
  const opened = tandem;
  const meters = cpuMeters(opened, claude.args[0] ?? claude.command);
  let turns = 0;
  return {
    close,
    workbench: opened,
    cpuMs: () => meters.total(),
    async turn(text, pace, marker, options = {}) {
      try {
        await freshConversation(opened.panel, turns++ === 0);
        return await tandemTurn(opened, meters, model, text, pace, marker, options);
      } catch (error) {
        const shot = await screenshot(opened.page, 'bench-streaming-failed').catch(() => 'no screenshot');
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`streaming bench in code-server failed: ${reason} (the workbench as it was: ${shot})`, { cause: error });
      }
    },
  };
}
