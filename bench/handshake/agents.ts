/**
 * The agents the handshake section measures: the scripted agent, and each real adapter behind
 * its scripted model server.
 */
import { startClaudeModelServer } from '../../test/support/model-servers/claude';
import { startGeminiModelServer } from '../../test/support/model-servers/gemini';
import { startOpenAIModelServer } from '../../test/support/model-servers/openai';
import type { ScriptedModelServer } from '../../test/support/model-servers/script';
import { claudeAgentSpec, codexAgentSpec, geminiAgentSpec, opencodeAgentSpec, qwenAgentSpec, type AgentSpec } from '../../test/support/real-agents';
import { definitionFromSpec } from '../../test/support/realAgentDefinitions';
import type { HandshakeTarget } from '../shared/agentLaunch';
import type { BenchContext } from '../shared/figures';
import { packageVersion } from '../shared/machine';
import type { PromptScript } from './firstToken';

/** A started agent: launches for the handshake, and what makes it answer a prompt with text. */
export interface StartedAgent {
  target: HandshakeTarget;
  script: PromptScript;
  close(): Promise<void>;
}

/**
 * An agent the section measures. Each one that runs here is listed in `HANDSHAKE_AGENTS`; an
 * agent added to the project adds its entry there (a real adapter behind its scripted model
 * server: `modelServerAgent`).
 */
export interface HandshakeAgent {
  /** The figures' key: handshake.<key>.*, handshake.firstToken.<key>.* */
  key: string;
  /** A real adapter: skipped with --quick. */
  real: boolean;
  start(context: BenchContext): Promise<StartedAgent>;
}

const ANSWER = 'First token.';

/**
 * Removes a launch's scratch HOME once the agent's last writes into it have landed: codex-acp's
 * own process can still be writing its session files for a moment after the agent was stopped.
 */
function disposeSettled(spec: AgentSpec): void {
  for (let attempt = 0; ; attempt++) {
    try {
      spec.dispose();
      return;
    } catch (error) {
      if (attempt >= 20 || (error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** A real adapter against its scripted model server: a fresh HOME per launch, the answer queued before each prompt. */
export function modelServerAgent(key: string, packageName: string, startServer: () => Promise<ScriptedModelServer>, spec: (modelUrl: string) => AgentSpec): HandshakeAgent {
  return {
    key,
    real: true,
    async start() {
      const server = await startServer();
      return {
        target: {
          name: `${key} ${packageVersion(packageName)} (scripted model server)`,
          launch: () => {
            const made = spec(server.url);
            return { definition: definitionFromSpec(made), cwd: made.cwd, preSession: made.preSession, dispose: () => disposeSettled(made) };
          },
        },
        script: { prompt: 'Say something short.', scriptAnswer: () => server.enqueue({ text: ANSWER }) },
        close: () => server.close(),
      };
    },
  };
}

export const HANDSHAKE_AGENTS: HandshakeAgent[] = [
  {
    key: 'scripted',
    real: false,
    start: async (context) => ({ target: await context.scriptedAgent(), script: { prompt: `echo ${ANSWER}`, scriptAnswer: () => undefined }, close: async () => undefined }),
  },
  modelServerAgent('claude', '@agentclientprotocol/claude-agent-acp', startClaudeModelServer, (url) => claudeAgentSpec(url)),
  modelServerAgent('gemini', '@google/gemini-cli', startGeminiModelServer, (url) => geminiAgentSpec(url)),
  modelServerAgent('codex', '@agentclientprotocol/codex-acp', startOpenAIModelServer, (url) => codexAgentSpec(url)),
  modelServerAgent('qwen', '@qwen-code/qwen-code', startOpenAIModelServer, (url) => qwenAgentSpec(url)),
  modelServerAgent('opencode', 'opencode-ai', startOpenAIModelServer, (url) => opencodeAgentSpec(url)),
];
