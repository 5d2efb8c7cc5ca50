import type { AgentServerSettings } from '../agents/agentConfig';
import { isRecord, stringArray as strings, stringRecord as stringMap } from '../util/untrustedJson';

/** The ACP agent registry (`registry.json`) as Tandem reads it; unknown fields are ignored. */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

interface PackageDistribution {
  package: string;
  args: string[];
  env: Record<string, string>;
}

interface BinaryTarget {
  archive: string;
  cmd: string;
  args: string[];
  env: Record<string, string>;
}

export interface RegistryAgent {
  id: string;
  name: string;
  version: string;
  description: string;
  repository: string | null;
  npx: PackageDistribution | null;
  uvx: PackageDistribution | null;
  binary: Record<string, BinaryTarget>;
}

function packageDistribution(value: unknown): PackageDistribution | null {
  return isRecord(value) && typeof value.package === 'string' ? { package: value.package, args: strings(value.args), env: stringMap(value.env) } : null;
}

function binaryTargets(value: unknown): Record<string, BinaryTarget> {
  const binary: Record<string, BinaryTarget> = {};
  if (!isRecord(value)) return binary;
  for (const [platform, target] of Object.entries(value)) {
    if (isRecord(target) && typeof target.archive === 'string' && typeof target.cmd === 'string') {
      binary[platform] = { archive: target.archive, cmd: target.cmd, args: strings(target.args), env: stringMap(target.env) };
    }
  }
  return binary;
}

/** Agents with at least a name and one way to run them; the rest are skipped. */
export function parseRegistry(json: unknown): RegistryAgent[] {
  if (!isRecord(json) || !Array.isArray(json.agents)) throw new Error('This is not an ACP registry: it has no "agents" list.');
  const agents: RegistryAgent[] = [];
  for (const raw of json.agents) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || typeof raw.name !== 'string' || !isRecord(raw.distribution)) continue;
    agents.push({
      id: raw.id,
      name: raw.name,
      version: typeof raw.version === 'string' ? raw.version : '',
      description: typeof raw.description === 'string' ? raw.description : '',
      repository: typeof raw.repository === 'string' ? raw.repository : null,
      npx: packageDistribution(raw.distribution.npx),
      uvx: packageDistribution(raw.distribution.uvx),
      binary: binaryTargets(raw.distribution.binary),
    });
  }
  return agents;
}

/** The registry's name for this machine's platform, e.g. "linux-x86_64". */
export function registryPlatform(platform: string, arch: string): string {
  const os = platform === 'win32' ? 'windows' : platform;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : arch;
  return `${os}-${cpu}`;
}

/**
 * A `tandem.agents` entry for a registry agent: npx or uvx run the published package (pinned to
 * the registry's version); a binary-only agent must be downloaded by the user, so its entry
 * names the program and the hint says where to get it.
 */
export function settingsForRegistryAgent(agent: RegistryAgent, platform: string): { settings: AgentServerSettings; note: string | null } {
  const label = agent.name;
  if (agent.npx) {
    const pinned = agent.npx.package.lastIndexOf('@') > 0 || !agent.version ? agent.npx.package : `${agent.npx.package}@${agent.version}`;
    return { settings: { label, command: 'npx', args: ['--yes', pinned, ...agent.npx.args], env: agent.npx.env }, note: null };
  }
  if (agent.uvx) {
    return { settings: { label, command: 'uvx', args: [agent.uvx.package, ...agent.uvx.args], env: agent.uvx.env }, note: 'Needs uv (uvx) installed.' };
  }
  const target = agent.binary[platform];
  if (target) {
    const command = target.cmd.replace(/^\.\//, '');
    return { settings: { label, command, args: target.args, env: target.env }, note: `Download ${target.archive}, unpack it and put "${command}" on your PATH (or set its full path as the command).` };
  }
  throw new Error(`${agent.name} has no distribution for ${platform}.`);
}
