/**
 * Agents killed at random points, each in a Tandem session over a real process (faultAgent.ts,
 * with a process tree from the start, in its group and in sessions of their own): during the
 * handshake, while text streams, during a tool call, during a file write, during a permission
 * request. A kill holds when no process the agent started is left (each carries the case's
 * own variable, so it is found in any group or session), every session/update that arrived before it
 * is in the thread, the session does not say ready, and (in some cases) Restart works. The
 * files the agent changed before dying are handed back for the review side to check.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameStore } from '../../src/acp/frames';
import type { Frame } from '../../src/wire/frame';
import type { FolderScopeParts } from '../../src/workspace/workspaceScope';
import type { SessionController } from '../../src/conversation/sessionController';
import { bundleAgent } from './agentBundle';
import { chunkText, type FaultWork } from './faultWork';
import { bounded, CaseScope, CrashGuard, FaultTally, type FaultResult, type FaultRun } from './faultRun';
import { groupMembers, processesCarrying } from './processGroups';
import { allowingPermissions } from './reviewHarness';
import { Random } from './reviewStressCases';
import { scriptedEnvironment, scriptedSession, tempWorkspace } from './sessionBuilders';
import { waitFor } from './waitFor';

export const KILL_POINTS = ['handshake', 'streaming', 'toolCall', 'write', 'permission'] as const;
export type KillPoint = (typeof KILL_POINTS)[number];

/** A file the agent changed before it died, as the disk holds it now. */
export interface AgentChange {
  path: string;
  /** null: the file did not exist before. */
  before: string | null;
  /** null: the file is gone. */
  after: string | null;
}

/** How the review side checks one kill: its scope's files serve the session, `check` names every change it cannot review. */
export interface KillReview {
  scope: FolderScopeParts;
  check(changes: readonly AgentChange[]): string[] | Promise<string[]>;
}

export interface KillRun extends FaultRun {
  /** Kills running at once. */
  concurrency?: number;
  /** The review side, per case (its workspace); without it the agent writes the disk itself. */
  review?(workspace: string): KillReview;
  /** Every change an agent made before it died, per case, for a review check done elsewhere. */
  onChanges?(kill: number, workspace: string, changes: readonly AgentChange[]): void;
}

interface KillPlan {
  index: number;
  point: KillPoint;
  signal: NodeJS.Signals;
  /** Which matching frame triggers the kill (see `triggers`). */
  nth: number;
  /** From that frame to the kill: 0 is while Tandem reads the frame (always, in the handshake, which a later kill could miss). */
  delayMs: number;
  /** The agent's environment: which children it starts (see faultAgent.ts). */
  env: Record<string, string>;
  work: FaultWork;
  /** Files the work writes, with what they held before. */
  files: { path: string; before: string | null }[];
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGKILL', 'SIGKILL', 'SIGTERM', 'SIGSEGV'];
/** A case from its start to its checks; past this it counts as a hang. */
const CASE_TIMEOUT_MS = 30_000;
/** Long enough for SIGTERM's grace, the SIGKILL after it and a slow init reaping the orphans. */
const GROUP_GONE_MS = 8000;
/**
 * Between two looks for the case's processes. A look reads all of /proc in this process, which
 * runs Tandem too: 10-30 ms a look, so four cases looking every 10 ms left Tandem's host little
 * time to end the trees or finish its writes.
 */
const PROCESS_POLL_MS = 100;
/** One case in this many also restarts the agent and runs a turn to its end. */
const RESTART_EVERY = 10;
/** In the agent's environment, with the case's own value: inherited by every process it starts. */
const CASE_VARIABLE = 'FAULT_AGENT_CASE';

/** The frames that can trigger a kill at each point, in the order they come. */
const triggers: Record<KillPoint, (frame: Frame, plan: KillPlan) => boolean> = {
  handshake: (frame) => (frame.direction === 'out' ? /"method":"(initialize|session\/new)"/.test(frame.text) : frame.text.includes('"agentCapabilities"')),
  streaming: (frame) => frame.direction === 'in' && frame.text.includes('"agent_message_chunk"'),
  toolCall: (frame) => frame.direction === 'in' && frame.text.includes('"toolCallId":"read-1"'),
  write: (frame, plan) => frame.direction === 'in' && (frame.text.includes('"method":"fs/write_text_file"') || (/"toolCallId":"write-\d+"/.test(frame.text) && plan.work.files.length > 0)),
  permission: (frame) => frame.direction === 'in' && frame.text.includes('"method":"session/request_permission"'),
};
const TRIGGER_COUNTS: Record<KillPoint, (work: FaultWork) => number> = {
  handshake: () => 3,
  streaming: (work) => work.chunks,
  toolCall: () => 2,
  write: (work) => work.files.length * 2,
  permission: () => 1,
};

/** Case `index`'s plan, from its own seed: cases running at once do not change each other's. */
function plan(index: number, seed: number, workspace: string): KillPlan {
  const random = new Random(seed * 100_000 + index);
  const point = KILL_POINTS[index % KILL_POINTS.length] as KillPoint;
  const files = Array.from({ length: 1 + random.int(3) }, (_, file) => ({ path: join(workspace, `file-${file}.txt`), before: random.chance(0.7) ? `before ${file}\n` : null }));
  const work: FaultWork = {
    chunks: 3 + random.int(40),
    files: files.map((file, at) => ({ path: file.path, content: `written by the agent ${index}.${at}\n`, via: random.chance(0.5) ? 'fs' : 'disk' })),
    permission: point === 'permission' || random.chance(0.3),
  };
  const env = {
    [CASE_VARIABLE]: `${process.pid}-${index}`,
    ...(random.chance(0.3) ? { FAULT_AGENT_STUBBORN: '1' } : {}),
    ...(random.chance(0.3) ? { FAULT_AGENT_SHARES_STDERR: '1' } : {}),
  };
  return { index, point, signal: random.pick(SIGNALS), nth: random.int(TRIGGER_COUNTS[point](work)), delayMs: point !== 'handshake' && random.chance(0.5) ? random.int(5) : 0, env, work, files };
}

/** Every session/update that arrived, by what it carried: the text of chunks, the tool calls and their final statuses. */
function arrived(frames: readonly Frame[]): { text: string; tools: Map<string, string | undefined> } {
  let text = '';
  const tools = new Map<string, string | undefined>();
  for (const frame of frames) {
    if (frame.direction !== 'in' || !frame.text.includes('"session/update"')) continue;
    const update = (JSON.parse(frame.text) as { params: { update: { sessionUpdate: string; toolCallId?: string; status?: string; content?: { text?: string } } } }).params.update;
    if (update.sessionUpdate === 'agent_message_chunk') text += update.content?.text ?? '';
    if (update.toolCallId) tools.set(update.toolCallId, update.status ?? tools.get(update.toolCallId));
  }
  return { text, tools };
}

function lostEntries(session: SessionController, frames: readonly Frame[]): string[] {
  const { text, tools } = arrived(frames);
  const shown = session.thread.snapshot().flatMap((entry) => (entry.kind === 'agentMessage' ? [entry.text] : [])).join('');
  const problems = shown === text ? [] : [`the thread shows ${JSON.stringify(shown.slice(-60))} of the text that arrived, ${JSON.stringify(text.slice(-60))}`];
  for (const [id, status] of tools) {
    const tool = session.thread.toolCall(id);
    if (!tool) problems.push(`tool call ${id} arrived but is not in the thread`);
    else if (status === 'completed' && tool.status !== 'completed') problems.push(`tool call ${id} arrived completed but the thread shows ${tool.status}`);
  }
  if (!text.startsWith(chunkText(0)) && text.length > 0) problems.push(`the agent's text did not start with its first chunk: ${JSON.stringify(text.slice(0, 40))}`);
  return problems;
}

function changes(files: KillPlan['files']): AgentChange[] {
  return files.flatMap(({ path, before }) => {
    const after = existsSync(path) ? readFileSync(path, 'utf8') : null;
    return after === before ? [] : [{ path, before, after }];
  });
}

/** The live processes the case's agent started (and the agent), in any group or session. */
const caseProcesses = (plan: KillPlan) => processesCarrying(CASE_VARIABLE, plan.env[CASE_VARIABLE] ?? '');

/**
 * Kills the agent when the plan's frame comes; `killed` is the pid it killed, once it did, and
 * `apart` how many processes it had started outside its group then.
 */
function armKill(session: SessionController, frames: FrameStore, plan: KillPlan): { killed(): number | undefined; apart(): number; disarm(): void } {
  let seen = 0;
  let killed: number | undefined;
  let apart = 0;
  const kill = () => {
    killed = session.agentPid;
    if (killed === undefined) return;
    process.kill(killed, plan.signal);
    // Counted before this process (Tandem's host too) can react to the kill.
    const group = new Set(groupMembers(killed));
    apart = caseProcesses(plan).filter((pid) => !group.has(pid)).length;
  };
  const listener = frames.onFrame((frame) => {
    if (!triggers[plan.point](frame, plan) || seen++ !== plan.nth) return;
    if (plan.delayMs === 0) kill();
    else setTimeout(kill, plan.delayMs);
  });
  return { killed: () => killed, apart: () => apart, disarm: () => listener.dispose() };
}

async function afterKill(session: SessionController, plan: KillPlan, frames: readonly Frame[]): Promise<string[]> {
  const problems: string[] = [];
  try {
    // A kill just after the turn ended is seen a moment later.
    await waitFor(() => session.connectionView.phase !== 'ready', 'the session to see the exit', 5000);
  } catch {
    problems.push('the session says ready after its agent was killed');
  }
  try {
    await waitFor(() => caseProcesses(plan).length === 0, 'every process the agent started to be gone', GROUP_GONE_MS, PROCESS_POLL_MS);
  } catch {
    problems.push(`processes the agent started left: ${caseProcesses(plan).join(', ')}`);
  }
  problems.push(...lostEntries(session, frames));
  if (plan.index % RESTART_EVERY === 0) {
    if (!(await session.restart())) problems.push(`Restart failed: ${session.connectionView.message ?? ''}`);
    else {
      await session.prompt(`work ${JSON.stringify({ chunks: 2, files: [], permission: false })}`);
      const ended = session.thread.snapshot().at(-1);
      if (ended?.kind !== 'turnEnded' || ended.stopReason !== 'end_turn') problems.push('the turn after Restart did not end normally');
    }
  }
  return problems;
}

/** `onApart`: how many processes the agent had started outside its group when it was killed. */
async function killCase(plan: KillPlan, agentFile: string, scope: CaseScope, workspace: string, run: KillRun & { onApart(count: number): void }): Promise<string | undefined> {
  for (const file of plan.files) if (file.before !== null) writeFileSync(file.path, file.before);
  const review = run.review?.(workspace);
  const environment = scriptedEnvironment(scope, { workspace, agent: 'process', ...(review ? { scope: review.scope } : {}) });
  const session = scriptedSession(scope, {
    environment,
    definition: { id: 'fault', label: 'Fault agent', command: process.execPath, args: [agentFile], env: plan.env },
  });
  const trigger = armKill(session, environment.frames, plan);
  const ran = await bounded(CASE_TIMEOUT_MS, 'the turn', async () => {
    const started = await session.start();
    if (plan.point === 'handshake') return started ? 'the session opened though its agent was killed in the handshake' : undefined;
    if (!started) return `the session did not start: ${session.connectionView.message ?? ''}`;
    const turn = session.prompt(`work ${JSON.stringify(plan.work)}`);
    await (plan.point === 'permission' ? turn : allowingPermissions(session, turn));
    return undefined;
  });
  if (ran) return ran;
  // A kill a few milliseconds after its frame may come after the turn ended.
  const pid = await waitFor(() => trigger.killed(), 'the kill', 1000).catch(() => undefined);
  trigger.disarm();
  if (pid === undefined) return 'the kill point was never reached';
  run.onApart(trigger.apart());
  const problems = await afterKill(session, plan, environment.frames.frames());
  const changed = changes(plan.files);
  run.onChanges?.(plan.index, workspace, changed);
  if (review) problems.push(...(await review.check(changed)));
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** Kills `run.cases` agents, cycling through the kill points, `concurrency` at a time. */
export async function runKillFaults(run: KillRun): Promise<FaultResult> {
  const tally = new FaultTally(run);
  const guard = new CrashGuard();
  const agentDir = mkdtempSync(join(tmpdir(), 'tandem-fault-agent-'));
  const perPoint = new Map<KillPoint, number>();
  let changed = 0;
  let apart = 0;
  try {
    const agentFile = await bundleAgent(join(__dirname, 'faultAgent.ts'), join(agentDir, 'fault-agent.mjs'));
    let next = 1;
    const worker = async () => {
      while (next <= run.cases && !run.shouldStop?.()) {
        const index = next++;
        const scope = new CaseScope();
        const workspace = tempWorkspace(scope, 'tandem-kill-');
        const kill = plan(index, run.seed ?? 1, workspace);
        const crashesBefore = guard.crashes.length;
        const failure = (await bounded(CASE_TIMEOUT_MS * 2, 'the kill', () => killCase(kill, agentFile, scope, workspace, {
          ...run,
          onChanges: (at, folder, list) => { changed += list.length; run.onChanges?.(at, folder, list); },
          onApart: (count) => { apart += count; },
        }))) ?? (guard.crashes.length > crashesBefore ? `crashed: ${guard.crashes.at(-1)}` : undefined);
        await scope.close();
        perPoint.set(kill.point, (perPoint.get(kill.point) ?? 0) + 1);
        tally.record(failure && `kill ${index} (${kill.point} #${kill.nth}, ${kill.signal}${kill.delayMs ? ` +${kill.delayMs} ms` : ''}): ${failure}`);
        if (index % 10 === 0) run.progress?.(`${tally.result.tried} kills, ${tally.result.failures} failures`);
      }
    };
    await Promise.all(Array.from({ length: run.concurrency ?? 3 }, worker));
  } finally {
    guard.dispose();
    rmSync(agentDir, { recursive: true, force: true });
  }
  tally.note(`kills per point: ${[...perPoint].map(([point, count]) => `${point} ${count}`).join(', ')}; ${changed} files changed by agents before they died; ${apart} processes outside the killed agent's group when it died`);
  return tally.result;
}
