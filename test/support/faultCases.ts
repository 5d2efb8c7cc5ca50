/**
 * Fault cases for the stress suite, as bounded runners it calls with a count and a seed:
 *
 *   frames  adversarial frames (faultFrames.ts) written into a Tandem session's agent output
 *           between the scripted agent's own frames, in batches, some while a turn streams.
 *           A batch holds when nothing crashed or hung, a frame that ends the connection left
 *           the session not ready with a sentence, and the next prompt got its answer.
 *   kills   agents killed at random points (faultKills.ts).
 *
 * Each runner returns { tried, failures, details, notes } and reports every case to `onCase`.
 */
import { SessionController } from '../../src/conversation/sessionController';
import { adversarialFrames, isEnding, type AdversarialFrame, type FrameKind } from './faultFrames';
import { bounded, CaseScope, CrashGuard, FaultTally, type FaultResult, type FaultRun } from './faultRun';
import { injectingStarter, type InjectingStarter } from './injectingAgent';
import { Random } from './reviewStressCases';
import { scriptedEnvironment, scriptedSession } from './sessionBuilders';
import { waitFor } from './waitFor';

export type { FaultResult, FaultRun } from './faultRun';
export { KILL_POINTS, runKillFaults, type AgentChange, type KillReview, type KillRun } from './faultKills';

/** Case counts: the full stress run, and the quick one inside `npm test`. */
export const FAULT_CASES = { frames: { full: 100_000, quick: 3_000 }, kills: { full: 200, quick: 12 } } as const;

/** Frames written between two checks. */
const BATCH_FRAMES = 500;
/** One connection-ending frame in this many, so a quick run has each ending kind once. */
const ENDING_EVERY = 1000;
/** A batch, its check prompt and any restart together; past this it counts as a hang. */
const BATCH_TIMEOUT_MS = 30_000;
/** A session holds this many batches before a new one takes over, to bound the thread's size. */
const BATCHES_PER_SESSION = 20;
/** The share of batches written while a turn streams. */
const MID_TURN = 0.3;

const withNewline = (line: string | Uint8Array): string | Uint8Array => (typeof line === 'string' ? `${line}\n` : Buffer.concat([line, Buffer.from('\n')]));

/** A session on an in-memory scripted agent whose output the run writes into. */
class FrameSession {
  readonly scope = new CaseScope();
  readonly agents: InjectingStarter = injectingStarter('memory');
  readonly session: SessionController;

  constructor() {
    const environment = { ...scriptedEnvironment(this.scope, { agent: 'process' }), startAgent: this.agents.start };
    this.session = scriptedSession(this.scope, { environment });
  }
}

interface Batch {
  index: number;
  frames: AdversarialFrame[];
  midTurn: boolean;
}

async function ready(session: SessionController): Promise<string | undefined> {
  if (session.connectionView.phase === 'ready' || (await session.start())) return undefined;
  return `the session did not start: ${session.connectionView.message ?? session.connectionView.phase}`;
}

/** Writes the batch; for a connection-ending last frame, the session must stop saying ready. */
async function feed(target: FrameSession, batch: Batch): Promise<string | undefined> {
  const { session, agents } = target;
  const agent = agents.latest();
  const sessionId = session.currentSessionId ?? '';
  const last = batch.frames.at(-1);
  for (const frame of batch.frames) await agent.inject(frame.kind === 'noFinalNewline' ? frame.line(sessionId) : withNewline(frame.line(sessionId)));
  if (!last || !isEnding(last.kind)) return undefined;
  if (last.kind === 'noFinalNewline') agent.endOutput();
  try {
    await waitFor(() => session.connectionView.phase !== 'ready', 'the session to leave ready', 5000);
  } catch {
    return `after a ${last.kind} frame the session still says ready`;
  }
  return session.connectionView.message ? undefined : `after a ${last.kind} frame the session says ${session.connectionView.phase} without a sentence`;
}

async function runBatch(target: FrameSession, batch: Batch): Promise<string | undefined> {
  const { session } = target;
  const notReady = await ready(session);
  if (notReady) return notReady;
  const turn = batch.midTurn ? session.prompt('slow') : null;
  if (turn) await waitFor(() => session.thread.lastAgentText().length > 10, 'the turn to stream');
  const fed = await feed(target, batch);
  if (turn) {
    await session.cancel();
    await turn;
  }
  if (fed) return fed;
  const expected = `You said: check ${batch.index}`;
  await session.prompt(`echo check ${batch.index}`);
  const answer = session.thread.lastAgentText();
  if (answer !== expected) return `the prompt after the batch got ${JSON.stringify(answer.slice(0, 80))} (${session.connectionView.phase}: ${session.connectionView.message ?? ''})`;
  return session.connectionView.phase === 'ready' ? undefined : `the session is ${session.connectionView.phase} after a prompt that worked`;
}

function describeBatch(batch: Batch): string {
  const kinds = new Map<FrameKind, number>();
  for (const frame of batch.frames) kinds.set(frame.kind, (kinds.get(frame.kind) ?? 0) + 1);
  return `batch ${batch.index} (${batch.midTurn ? 'mid-turn' : 'idle'}; ${[...kinds].map(([kind, count]) => `${kind} ${count}`).join(', ')})`;
}

/**
 * Feeds `run.cases` adversarial frames to sessions over the scripted agent, in batches of
 * BATCH_FRAMES (a connection-ending frame closes its batch early).
 */
export async function runFrameFaults(run: FaultRun): Promise<FaultResult> {
  const random = new Random(run.seed ?? 1);
  const tally = new FaultTally(run);
  const guard = new CrashGuard();
  const perKind = new Map<FrameKind, number>();
  let target = new FrameSession();
  let midTurn = 0;
  let batch: Batch = { index: 1, frames: [], midTurn: random.chance(MID_TURN) };
  const finish = async () => {
    const crashesBefore = guard.crashes.length;
    const failure = (await bounded(BATCH_TIMEOUT_MS, 'the batch', () => runBatch(target, batch)))
      ?? (guard.crashes.length > crashesBefore ? `crashed: ${guard.crashes.at(-1)}` : undefined);
    for (const frame of batch.frames) perKind.set(frame.kind, (perKind.get(frame.kind) ?? 0) + 1);
    if (batch.midTurn) midTurn++;
    // Every frame is a case; a batch that failed counts once, on its last frame.
    for (let index = 1; index < batch.frames.length; index++) tally.record();
    tally.record(failure && `${describeBatch(batch)}: ${failure}`);
    if (failure || batch.index % BATCHES_PER_SESSION === 0) {
      await target.scope.close();
      target = new FrameSession();
    }
    if (batch.index % 20 === 0) run.progress?.(`${tally.result.tried} frames, ${tally.result.failures} failures`);
    batch = { index: batch.index + 1, frames: [], midTurn: random.chance(MID_TURN) };
  };
  try {
    for (const frame of adversarialFrames(run.cases, () => random.next(), ENDING_EVERY)) {
      if (run.shouldStop?.()) break;
      batch.frames.push(frame);
      if (batch.frames.length >= BATCH_FRAMES || isEnding(frame.kind)) await finish();
    }
    if (batch.frames.length > 0 && !run.shouldStop?.()) await finish();
  } finally {
    await target.scope.close();
    guard.dispose();
  }
  tally.note(`frames per kind: ${[...perKind].map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
  tally.note(`${batch.index - 1} batches (${midTurn} written while a turn streamed), each followed by a prompt; ${guard.crashes.length} crashes; the SDK reported ${guard.consoleErrors} frames it dropped or could not route`);
  return tally.result;
}
