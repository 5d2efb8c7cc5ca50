/**
 * Defect: a crashed agent's children ran on, reparented to init, after the editor closed. The
 * host's own stop gives SIGTERM a grace before SIGKILL; a host that is gone before the grace
 * ends (the editor closed right after the crash) can no longer send it, so only the watcher
 * outside the host can end a child that ignores SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { signalGroup } from '../../src/util/processGroup';
import { groupMembers } from '../support/processGroups';
import { isAlive } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

/**
 * An agent whose children ignore SIGTERM, one holding the agent's pipes and one not; it prints
 * their pids only once both have set up their handlers, so a SIGTERM cannot kill them early.
 */
const STUBBORN_AGENT = `
  const { spawn } = require('node:child_process');
  const stubborn = 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)';
  const ready = (child) => new Promise((resolve) => child.stdout.once('data', resolve));
  const holding = spawn(process.execPath, ['-e', stubborn], { stdio: ['inherit', 'pipe', 'inherit'] });
  const apart = spawn(process.execPath, ['-e', stubborn], { stdio: ['ignore', 'pipe', 'ignore'] });
  Promise.all([ready(holding), ready(apart)]).then(() => console.log(JSON.stringify([holding.pid, apart.pid])));
  setInterval(() => {}, 1000);
`;

/** A stand-in extension host that starts the agent through AgentProcess and prints every pid. */
const HOST = `
  require('tsx/cjs');
  const { AgentProcess } = require(${JSON.stringify(require.resolve('../../src/acp/agentProcess'))});
  const agent = new AgentProcess({ command: process.execPath, args: ['-e', ${JSON.stringify(STUBBORN_AGENT)}], env: {}, cwd: process.cwd() });
  agent.stdout.once('data', (d) => console.log(JSON.stringify([agent.pid, ...JSON.parse(String(d))])));
  setInterval(() => {}, 1000);
`;

describe('children of a crashed agent, when the editor closes right after the crash', () => {
  test('children that ignore SIGTERM are ended though the host died before its SIGKILL', { timeout: 30_000 }, async (t) => {
    const host = spawn(process.execPath, ['-e', HOST], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => host.kill('SIGKILL'));
    let output = '';
    host.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const pids = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'the agent and its children', 15_000);
    const [pgid = 0, ...children] = pids;
    t.after(() => signalGroup(pgid, 'SIGKILL'));
    assert.equal(groupMembers(pgid).length, 3, 'the agent and both children share its group');

    process.kill(pgid, 'SIGKILL');
    // The host lives long enough to see the crash and send SIGTERM, not long enough for its SIGKILL.
    await waitFor(() => !isAlive(pgid), 'the agent to die', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    host.kill('SIGKILL');
    await waitFor(() => host.exitCode !== null || host.signalCode !== null, 'the host to die', 5_000);
    assert.ok(children.every(isAlive), 'the children ignored SIGTERM and outlived the host');

    await waitFor(() => groupMembers(pgid).length === 0, 'every child of the crashed agent to be ended', 15_000);
    assert.ok(children.every((pid) => !isAlive(pid)));
  });
});
