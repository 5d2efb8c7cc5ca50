import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageEntry } from '../../src/usage/usageEntry';

/** Every entry of the usage ledger files in a code-server's global storage, oldest month first. */
export function ledgerEntries(userDataDir: string): UsageEntry[] {
  const folder = join(userDataDir, 'User', 'globalStorage', 'tandem-acp.tandem', 'usage');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).sort().flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as UsageEntry));
}
