// One real agent against a scripted model server of its own, for the real-agent tests, and the
// order everything ends in when the test does: each agent stopped and its session disposed
// first, then the model server closed and the spec's folders removed (an agent may write its
// scratch HOME until it has exited).
import { FrameStore } from '../../src/acp/frames';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import { SessionController } from '../../src/conversation/sessionController';
import type { SessionEnvironment } from '../../src/conversation/sessionEnvironment';
import { silentLogger } from '../../src/util/logger';
import type { ScriptedModelServer } from './model-servers/script';
import { groupMembers } from './processGroups';
import type { AgentSpec } from './real-agents';
import { definitionFromSpec } from './realAgentDefinitions';
import { reviewedSession } from './reviewHarness';
import type { TestScope } from './sessionBuilders';
import { waitFor } from './waitFor';

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

export type StopAgent = (session: SessionController) => Promise<void>;

const stopAgent: StopAgent = (session) => session.stopAgent();

/**
 * Stops the agent and waits for its whole process group (codex-acp and the Codex app-server it
 * drives) to be gone: stopAgent resolves when codex-acp exits, while Codex may still be writing
 * its CODEX_HOME, which the spec's dispose removes.
 */
export const stopCodex: StopAgent = async (session) => {
  const pgid = session.agentPid;
  await session.stopAgent();
  if (pgid !== undefined) await waitFor(() => groupMembers(pgid).length === 0, 'Codex and its app-server to end', 10_000, 50);
};

/** When the test ends: each session's agent stopped (by `stop`) and the session disposed, then `agent` closed. */
export function endAfterTest(t: TestScope, agent: ScriptedRealAgent, sessions: readonly SessionController[], stop: StopAgent = stopAgent): void {
  t.after(async () => {
    for (const session of sessions) {
      await stop(session);
      session.dispose();
    }
    await agent.close();
  });
}

/** A session controller on the real agent as the extension opens one (trusted, in the spec's folder, its frames kept), ended after the test. */
export function realAgentSession(t: TestScope, agent: ScriptedRealAgent, options: { environment?: Partial<SessionEnvironment>; stop?: StopAgent } = {}) {
  const frames = new FrameStore();
  const session = new SessionController(definitionFromSpec(agent.spec), { workspaceRoot: agent.spec.cwd, trusted: true, frames, logger: silentLogger, ...options.environment });
  endAfterTest(t, agent, [session], options.stop);
  return { session, frames };
}

/** A session on the real agent whose file changes are reviewed as in the editor (see reviewedSession), ended after the test. */
export function reviewedRealAgentSession(t: TestScope, agent: ScriptedRealAgent, options: { definition?: Partial<AgentDefinition>; stop?: StopAgent } = {}) {
  const reviewed = reviewedSession({ ...definitionFromSpec(agent.spec), ...options.definition }, agent.spec.cwd);
  endAfterTest(t, agent, [reviewed.session], options.stop);
  return reviewed;
}
