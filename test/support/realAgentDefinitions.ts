import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { AgentSpec } from './real-agents';

const LABELS: Record<AgentSpec['name'], string> = { claude: 'Claude Code', gemini: 'Gemini CLI', codex: 'Codex', qwen: 'Qwen Code', opencode: 'OpenCode' };

/** A real agent's spawn spec as the agent definition Tandem's session layer starts. */
export function definitionFromSpec(spec: AgentSpec): AgentDefinition {
  return {
    id: spec.name,
    label: LABELS[spec.name],
    description: `real ${spec.name} agent against a scripted model server`,
    command: spec.command,
    args: spec.args,
    env: spec.env,
    defaultMode: null,
    defaultConfigOptions: {},
    installHint: null,
    authMethodWhenKeyInEnv: spec.name === 'gemini' ? { envVar: 'GEMINI_API_KEY', methodId: 'gemini-api-key' } : null,
  };
}
