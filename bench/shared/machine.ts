import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installedPackageDir } from '../../test/support/agentPackages';
import { round } from './stats';

export function packageVersion(name: string): string {
  const dir = installedPackageDir(name);
  if (dir === undefined) return 'unknown';
  try {
    const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string };
    return json.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What the figures were measured on: printed in the header and carried in the JSON line. */
export function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    availableParallelism: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    loadAverage: os.loadavg().map((value) => round(value, 2)),
    acpSdk: packageVersion('@agentclientprotocol/sdk'),
    claudeAgentAcp: packageVersion('@agentclientprotocol/claude-agent-acp'),
  };
}
