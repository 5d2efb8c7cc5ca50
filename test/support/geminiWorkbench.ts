// A Tandem workbench (see tandemWorkbench.ts) that also offers the real Gemini CLI, working
// against a scripted model server on 127.0.0.1 and configured as a user configures it: an entry
// in `tandem.agents`, with the API key in the environment, never in settings.
import { startGeminiModelServer } from './model-servers/gemini';
import type { ScriptedModelServer } from './model-servers/script';
import { geminiAgentSpec } from './real-agents';
import { openTandemWorkbench, type TandemWorkbench, type TandemWorkbenchOptions, type TempWorkspace } from './tandemWorkbench';

export interface GeminiWorkbenchOptions extends TandemWorkbenchOptions {
  /** More `tandem.agents` entries, offered after Gemini's. */
  agents?: Record<string, unknown>;
}

export interface GeminiWorkbench extends TandemWorkbench {
  /** The model server Gemini CLI asks: the test queues its turns here. */
  model: ScriptedModelServer;
}

/** The workbench with `gemini` among its agents, its folder the session's cwd; close() also ends the model server and the spec's scratch HOME. */
export async function openGeminiWorkbench(where: TempWorkspace, options: GeminiWorkbenchOptions = {}): Promise<GeminiWorkbench> {
  const { agents, settings, env, ...rest } = options;
  const model = await startGeminiModelServer();
  const gemini = geminiAgentSpec(model.url, { cwd: where.workspace });
  const endGemini = async () => {
    await model.close();
    gemini.dispose();
  };
  const { GEMINI_API_KEY, ...geminiEnv } = gemini.env;
  try {
    const tandem = await openTandemWorkbench(where, {
      ...rest,
      env: { ...env, GEMINI_API_KEY: GEMINI_API_KEY ?? 'test-key' },
      settings: { ...settings, 'tandem.agents': { gemini: { command: gemini.command, args: gemini.args, env: geminiEnv }, ...agents } },
    });
    return {
      ...tandem,
      model,
      close: async () => {
        await tandem.close();
        await endGemini();
      },
    };
  } catch (error) {
    await endGemini();
    throw error;
  }
}
