// A Tandem workbench (see tandemWorkbench.ts) that also offers one real agent, working against a
// scripted model server on 127.0.0.1 and configured as a user configures it: an entry in
// `tandem.agents`, and the agent's API key (where it takes one) in the environment, never in
// settings, as the README tells users to keep it.
import { startClaudeModelServer } from './model-servers/claude';
import { startGeminiModelServer } from './model-servers/gemini';
import { startOpenAIModelServer } from './model-servers/openai';
import type { ScriptedModelServer } from './model-servers/script';
import { claudeAgentSpec, codexAgentSpec, geminiAgentSpec, type AgentSpec, type AgentSpecOptions } from './real-agents';
import { openTandemWorkbench, type TandemWorkbench, type TandemWorkbenchOptions, type TempWorkspace } from './tandemWorkbench';

/** How one real agent is offered: its `tandem.agents` id, its model server and spec, and the variable its key is read from. */
export interface WorkbenchAgent {
  id: string;
  startModel(): Promise<ScriptedModelServer>;
  specFor(modelUrl: string, options: AgentSpecOptions): AgentSpec;
  keyVariable?: string;
}

export const GEMINI_CLI: WorkbenchAgent = { id: 'gemini', startModel: startGeminiModelServer, specFor: geminiAgentSpec, keyVariable: 'GEMINI_API_KEY' };
export const CLAUDE_CODE: WorkbenchAgent = { id: 'claude-code', startModel: startClaudeModelServer, specFor: claudeAgentSpec, keyVariable: 'ANTHROPIC_API_KEY' };
/** The Codex preset, started the way this machine can run it: the pinned adapter, offline, no key. */
export const CODEX: WorkbenchAgent = { id: 'codex', startModel: startOpenAIModelServer, specFor: codexAgentSpec };

export interface AgentWorkbenchOptions extends TandemWorkbenchOptions {
  /** More `tandem.agents` entries, offered after the real agent's. */
  agents?: Record<string, unknown>;
}

export interface AgentWorkbench extends TandemWorkbench {
  /** The model server the agent asks: the test queues its turns here. */
  model: ScriptedModelServer;
}

/** The workbench with `agent` among its agents, its folder the session's cwd; close() also ends the model server and the spec's scratch HOME. */
export async function openAgentWorkbench(where: TempWorkspace, agent: WorkbenchAgent, options: AgentWorkbenchOptions = {}): Promise<AgentWorkbench> {
  const { agents, settings, env, ...rest } = options;
  const model = await agent.startModel();
  const spec = agent.specFor(model.url, { cwd: where.workspace });
  const endAgent = async () => {
    await model.close();
    spec.dispose();
  };
  // The key goes to the editor's environment, and from there to the agent, as for a user.
  const agentEnv = { ...spec.env };
  const keyEnv: Record<string, string> = {};
  if (agent.keyVariable !== undefined) {
    keyEnv[agent.keyVariable] = agentEnv[agent.keyVariable] ?? 'test-key';
    delete agentEnv[agent.keyVariable];
  }
  try {
    const tandem = await openTandemWorkbench(where, {
      ...rest,
      env: { ...env, ...keyEnv },
      settings: { ...settings, 'tandem.agents': { [agent.id]: { command: spec.command, args: spec.args, env: agentEnv }, ...agents } },
    });
    return {
      ...tandem,
      model,
      close: async () => {
        await tandem.close();
        await endAgent();
      },
    };
  } catch (error) {
    await endAgent();
    throw error;
  }
}
