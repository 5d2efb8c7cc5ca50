// The real agents the tests drive are pinned in test/agents/package.json, a package of its own that
// scripts/test.sh installs (`npm ci --prefix test/agents`): Tandem's own `npm ci` installs none of
// them. As Node's resolution would from test/agents, a package is looked for there first, then in
// the repository's node_modules.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './scriptedAgentSpec';

const SEARCHED = [path.join(repoRoot, 'test', 'agents', 'node_modules'), path.join(repoRoot, 'node_modules')];

/** Where an installed package is, or undefined when neither place has it. */
export function installedPackageDir(name: string): string | undefined {
  return SEARCHED.map((dir) => path.join(dir, name)).find((dir) => existsSync(path.join(dir, 'package.json')));
}

/** The file a test agent's package names as its program `bin`. */
export function agentProgram(packageName: string, bin: string): string {
  const dir = installedPackageDir(packageName);
  if (dir === undefined) throw new Error(`${packageName} is not installed: run \`npm ci --prefix test/agents\` (npm test does).`);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const file = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
  if (file === undefined) throw new Error(`${packageName} has no program named ${bin}.`);
  return path.join(dir, file);
}
