import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentDefinition } from '../../src/agents/agentConfig';

export const repoRoot = join(__dirname, '..', '..');

/** `--import tsx` resolves from the cwd, and agents run in temp workspaces: use an absolute URL. */
export const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** The scripted agent as an agent definition, run by this Node with tsx. */
export function scriptedAgentDefinition(env: Record<string, string> = {}): AgentDefinition {
  return {
    id: 'scripted',
    label: 'Scripted agent',
    description: 'Deterministic test agent',
    command: process.execPath,
    args: ['--import', tsxLoader, join(repoRoot, 'test', 'support', 'scripted-agent.ts')],
    env,
    defaultMode: null,
    defaultConfigOptions: {},
    installHint: null,
    authMethodWhenKeyInEnv: null,
  };
}
