/**
 * The watcher that ends process groups when the extension host dies is one process per host,
 * however many agents and commands the host starts: forking from a large host pauses it, so
 * it must not fork one per group.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { signalGroup } from '../../src/util/processGroup';
import { groupMembers } from '../support/processGroups';
import { waitFor } from '../support/waitFor';

/** Live children of `parent` whose command line holds `marker`, from /proc. */
function childrenRunning(parent: number, marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const commandLine = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (state !== 'Z' && Number(ppid) === parent && commandLine.includes(marker)) found.push(Number(name));
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

/** A program that ignores SIGTERM and runs until killed. */
const STUBBORN = 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)';

/**
 * A stand-in extension host: three agents and two agent commands, each in its own group; it
 * prints every group's id once all run.
 */
const HOST = `
  require(${JSON.stringify(require.resolve('tsx/cjs'))});
  const { AgentProcess } = require(${JSON.stringify(require.resolve('../../src/acp/agentProcess'))});
  const { CommandProcess } = require(${JSON.stringify(require.resolve('../../src/terminals/commandProcess'))});
  const launch = { command: process.execPath, args: ['-e', ${JSON.stringify(STUBBORN)}], env: {}, cwd: process.cwd() };
  const agents = [1, 2, 3].map(() => new AgentProcess(launch));
  const command = () => CommandProcess.start({ file: process.execPath, args: ['-e', ${JSON.stringify(STUBBORN)}], env: {}, cwd: process.cwd(), outputByteLimit: 1000 });
  Promise.all([command(), command()]).then((commands) => console.log(JSON.stringify([...agents, ...commands].map((each) => each.pid))));
  setInterval(() => {}, 1000);
`;

describe('the watcher of process groups', () => {
  test('one watcher serves every agent and command of a host, and ends them all when the host is killed', { timeout: 30_000 }, async (t) => {
    const host = spawn(process.execPath, ['-e', HOST], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => host.kill('SIGKILL'));
    let output = '';
    host.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const groups = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'the groups of the host', 15_000);
    for (const group of groups) t.after(() => signalGroup(group, 'SIGKILL'));
    assert.equal(groups.length, 5);
    assert.ok(groups.every((group) => groupMembers(group).length === 1), 'every agent and command runs in a group of its own');
    assert.equal(childrenRunning(host.pid ?? 0, 'tandem-reaper').length, 1, 'the host started one watcher for five groups');

    host.kill('SIGKILL');
    await waitFor(() => groups.every((group) => groupMembers(group).length === 0) || undefined, 'every group of the killed host to be ended, SIGTERM ignored', 15_000);
  });
});
