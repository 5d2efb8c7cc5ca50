// One real agent against a scripted model server of its own, for the real-agent tests, and the
// order everything ends in when the test does: each agent stopped and its session disposed
// first, then the model server closed and the spec's folders removed (an agent may write its
// scratch HOME until it has exited). Also the first check every agent's panel test makes.
import assert from 'node:assert/strict';
import { FrameStore } from '../../src/acp/frames';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { ConversationView } from '../../src/contract/conversationView';
import { SessionController } from '../../src/conversation/sessionController';
import type { SessionEnvironment } from '../../src/conversation/sessionEnvironment';
import type { ChatPresenter } from '../../src/panel/chatPresenter';
import { silentLogger } from '../../src/util/logger';
import type { ModelTurn, ScriptedModelServer } from './model-servers/script';
import { groupMembers } from './processGroups';
import type { AgentSpec } from './real-agents';
import { definitionFromSpec } from './realAgentDefinitions';
import { openAgentPanel, wireFrames } from './realAgentPanel';
import { reviewedSession } from './reviewHarness';
import type { TestScope } from './sessionBuilders';
import { waitFor } from './waitFor';
import { folderScope } from '../../src/workspace/workspaceScope';

export interface ScriptedRealAgent {
  model: ScriptedModelServer;
  spec: AgentSpec;
  /** Closes the model server and removes the spec's folders: only once the agent has stopped. */
  close(): Promise<void>;
}

export async function startScriptedRealAgent(startModel: () => Promise<ScriptedModelServer>, specFor: (modelUrl: string) => AgentSpec): Promise<ScriptedRealAgent> {
  const model = await startModel();
  const spec = specFor(model.url);
  return {
    model,
    spec,
    close: async () => {
      await model.close();
      spec.dispose();
    },
  };
}

/** The panel presenter over a real agent on a model server of its own (see openAgentPanel); all of it ended after the test. */
export async function openScriptedAgentPanel(t: TestScope, startModel: () => Promise<ScriptedModelServer>, specFor: (modelUrl: string) => AgentSpec, stop: StopAgent = stopAgent) {
  const agent = await startScriptedRealAgent(startModel, specFor);
  const panel = await openAgentPanel(t, agent.spec, { stop, cleanup: agent.close });
  return { model: agent.model, spec: agent.spec, ...panel };
}

export type StopAgent = (session: SessionController) => Promise<void>;

/**
 * Stops the agent and waits for its whole process group to be gone: stopAgent resolves when the
 * adapter exits, while what it drives (Codex's app-server, Claude Code's native binary) may still
 * be writing into the scratch HOME that the spec's dispose removes (rmdir then fails, ENOTEMPTY).
 */
const stopAgent: StopAgent = async (session) => {
  const pgid = session.agentPid;
  await session.stopAgent();
  if (pgid !== undefined) await waitFor(() => groupMembers(pgid).length === 0, 'the agent and everything it started to end', 10_000, 50);
};

/** The sessions on each agent that its end after the test waits for, with how each is stopped. */
const sessionsToEnd = new WeakMap<ScriptedRealAgent, { session: SessionController; stop: StopAgent }[]>();

/**
 * When the test ends: each session's agent stopped (by `stop`) and the session disposed, then `agent`
 * closed (its scratch HOME removed). A test that opens several sessions on one agent gets one end for
 * all of them: the HOME goes only once every agent process that writes there has ended.
 */
export function endAfterTest(t: TestScope, agent: ScriptedRealAgent, sessions: readonly SessionController[], stop: StopAgent = stopAgent): void {
  let ending = sessionsToEnd.get(agent);
  if (!ending) {
    const all: { session: SessionController; stop: StopAgent }[] = [];
    sessionsToEnd.set(agent, all);
    ending = all;
    t.after(async () => {
      for (const { session, stop: stopIt } of all) {
        await stopIt(session);
        session.dispose();
      }
      await agent.close();
    });
  }
  ending.push(...sessions.map((session) => ({ session, stop })));
}

/** A session controller on the real agent as the extension opens one (trusted, in the spec's folder, its frames kept), ended after the test. */
export function realAgentSession(t: TestScope, agent: ScriptedRealAgent, options: { environment?: Partial<SessionEnvironment>; stop?: StopAgent } = {}) {
  const frames = new FrameStore();
  const session = new SessionController(definitionFromSpec(agent.spec), { workspace: () => folderScope(agent.spec.cwd), trusted: true, frames, logger: silentLogger, ...options.environment });
  endAfterTest(t, agent, [session], options.stop);
  return { session, frames };
}

/** A session on the real agent whose file changes are reviewed as in the editor (see reviewedSession), ended after the test. */
export function reviewedRealAgentSession(t: TestScope, agent: ScriptedRealAgent, options: { definition?: Partial<AgentDefinition>; stop?: StopAgent } = {}) {
  const reviewed = reviewedSession({ ...definitionFromSpec(agent.spec), ...options.definition }, agent.spec.cwd);
  endAfterTest(t, agent, [reviewed.session], options.stop);
  return reviewed;
}

/** How a test talks to the agent: through the panel's presenter, as the user does, or to the session itself. */
export interface AgentDriver {
  readonly session: SessionController;
  readonly frames: FrameStore;
  prompt(text: string): Promise<void>;
  /** Stop, as the user presses it. */
  stop(): Promise<void>;
}

export function throughPanel(panel: { presenter: ChatPresenter; frames: FrameStore }): AgentDriver {
  return {
    get session() {
      return panel.presenter.currentSession;
    },
    frames: panel.frames,
    prompt: (text) => panel.presenter.sendPrompt(text),
    stop: () => panel.presenter.cancelTurn(),
  };
}

export function throughSession(opened: { session: SessionController; frames: FrameStore }): AgentDriver {
  return { ...opened, prompt: (text) => opened.session.prompt(text), stop: () => opened.session.cancel() };
}

/** `reply`, scripted in twelve-character pieces, is in the thread whole and came as several agent_message_chunk frames. */
export async function assertAnswerStreamsInPieces(agent: AgentDriver, model: ScriptedModelServer, reply: string): Promise<void> {
  model.enqueue({ text: reply, chunkSize: 12 });
  await agent.prompt('Say hello');
  assert.equal(agent.session.thread.lastAgentText(), reply);
  const chunks = agent.frames.frames().filter((frame) => frame.direction === 'in' && frame.text.includes('"agent_message_chunk"'));
  assert.ok(chunks.length >= 2, `the answer came as several chunks (${chunks.length})`);
}

/**
 * Stop while a long answer streams (`then` queued behind it): the turn ends as cancelled before
 * the answer's end, and session/cancel went out. No repeated chunks in the answer: Gemini CLI's
 * loop detection would end a repetitive answer by itself.
 */
export async function assertStopCancelsStreamingTurn(agent: AgentDriver, model: ScriptedModelServer, ...then: ModelTurn[]): Promise<void> {
  const long = Array.from({ length: 800 }, (_, i) => `w${i} `).join('');
  model.enqueue({ text: long, chunkSize: 10, delayMs: 20 }, ...then);
  const turn = agent.prompt('Write a long answer');
  await waitFor(() => agent.session.thread.lastAgentText().startsWith('w0 w1 w2 '), 'the long answer to start streaming', 30_000);
  await agent.stop();
  await turn;
  const ended = agent.session.thread.snapshot().at(-1);
  assert.equal(ended?.kind === 'turnEnded' && ended.stopReason, 'cancelled');
  assert.ok(agent.session.thread.lastAgentText().length < long.length, 'the stream stopped before the end');
  assert.ok(agent.frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/cancel"')));
}

/**
 * The usage_update the agent sent last, and the context meter showing it; the panel gets
 * conversation changes in batches, so this waits for the one that carries it.
 */
export async function meterShowingLastUsageUpdate(panel: { frames: FrameStore; conversation(): ConversationView | undefined }, agentName: string) {
  const update = wireFrames(panel.frames, 'in').filter((frame) => (frame.params?.update as { sessionUpdate?: string } | undefined)?.sessionUpdate === 'usage_update').at(-1);
  const sent = update?.params?.update as { used: number; size: number; cost?: unknown } | undefined;
  assert.ok(sent, `${agentName} sends usage_update`);
  const usage = await waitFor(() => {
    const shown = panel.conversation()?.usage;
    return shown?.kind === 'context' && shown.used === sent.used ? shown : undefined;
  }, 'the context meter to show the last usage_update', 10_000);
  assert.equal(usage.size, sent.size);
  return { sent, usage };
}

/** Every request the agent made of the model server was one the server knows (none left with role "unknown"). */
export function assertNothingUnanswered(model: ScriptedModelServer, agentName: string): void {
  assert.deepEqual(model.requests.filter((request) => request.role === 'unknown').map((request) => `${request.method} ${request.path}`), [], `nothing ${agentName} asked went unanswered`);
}
