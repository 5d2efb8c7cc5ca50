/**
 * Defect: Claude Code runs every Bash command in a process group and session of its own; when
 * the agent was killed (as the OOM killer would), such a command outlived it, and outlived
 * Stop too: ending the agent's group does not reach it, and once the agent is dead no parent
 * link leads to it. Every process here is real; "gone" is what /proc and kill(pid, 0) say.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test, type TestContext } from 'node:test';
import { AgentProcess } from '../../src/acp/agentProcess';
import { CommandProcess } from '../../src/terminals/commandProcess';
import { isAlive } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

/**
 * An agent whose children each lead a session of their own: a plain one, one that ignores
 * SIGTERM with a child of its own (which ignores it too), and one started with an environment
 * of its own. It prints every pid once all run.
 */
const AGENT = `
  const { spawn } = require('node:child_process');
  const plain = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
  const scrubbed = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH } });
  const stubborn = spawn('sh', ['-c', 'trap "" TERM; sleep 1000 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  stubborn.stdout.once('data', (grandchild) => console.log(JSON.stringify([plain.pid, scrubbed.pid, stubborn.pid, Number(String(grandchild))])));
  setInterval(() => {}, 1000);
`;

/** An agent that starts a child in a session of its own and is killed at once, before it can do anything else. */
const KILLED_RIGHT_AFTER_SPAWN = `
  const { spawn } = require('node:child_process');
  const child = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
  process.stdout.write(JSON.stringify([child.pid]));
  process.kill(process.pid, 'SIGKILL');
`;

const agentRunning = (script: string) => new AgentProcess({ command: process.execPath, args: ['-e', script], env: {}, cwd: process.cwd() });

/** The pids the agent prints; every one is killed when the test ends, whatever happened. */
async function printedPids(t: TestContext, agent: { stdout: NodeJS.ReadableStream }): Promise<number[]> {
  let output = '';
  agent.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const pids = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'the pids of the agent\'s children', 15_000);
  t.after(() => pids.forEach((pid) => isAlive(pid) && process.kill(pid, 'SIGKILL')));
  return pids;
}

const allGone = (pids: readonly number[]) => pids.every((pid) => !isAlive(pid)) || undefined;

describe('processes an agent started outside its process group', () => {
  test('end when the agent is killed', { timeout: 30_000 }, async (t) => {
    const agent = agentRunning(AGENT);
    const [plain = 0, , stubborn = 0, grandchild = 0] = await printedPids(t, agent);
    assert.ok([plain, stubborn, grandchild].every(isAlive));
    process.kill(agent.pid ?? 0, 'SIGKILL');
    await agent.exited;
    // The one started without the agent's environment cannot be told apart once its parent is dead.
    await waitFor(() => allGone([plain, stubborn, grandchild]), 'every child that left the agent\'s group to be gone', 10_000);
  });

  test('end on Stop', { timeout: 30_000 }, async (t) => {
    const agent = agentRunning(AGENT);
    const pids = await printedPids(t, agent);
    assert.ok(pids.every(isAlive));
    await agent.stop();
    await waitFor(() => allGone(pids), 'every child that left the agent\'s group to be gone', 10_000);
  });

  test('end when the agent is killed right after starting one', { timeout: 60_000 }, async (t) => {
    const children: number[] = [];
    for (let round = 0; round < 10; round++) {
      const agent = agentRunning(KILLED_RIGHT_AFTER_SPAWN);
      children.push(...(await printedPids(t, agent)));
      await agent.exited;
    }
    await waitFor(() => allGone(children), 'every child of the killed agents to be gone', 10_000);
  });

  test('end when the agent and the editor are killed together', { timeout: 30_000 }, async (t) => {
    const hostScript = `
      require(${JSON.stringify(require.resolve('tsx/cjs'))});
      const { AgentProcess } = require(${JSON.stringify(require.resolve('../../src/acp/agentProcess'))});
      const agent = new AgentProcess({ command: process.execPath, args: ['-e', ${JSON.stringify(AGENT)}], env: {}, cwd: process.cwd() });
      agent.stdout.once('data', (d) => console.log(JSON.stringify([agent.pid, ...JSON.parse(String(d))])));
      setInterval(() => {}, 1000);
    `;
    const host = spawn(process.execPath, ['-e', hostScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => host.kill('SIGKILL'));
    const [agentPid = 0, plain = 0, , stubborn = 0, grandchild = 0] = await printedPids(t, host);
    process.kill(agentPid, 'SIGKILL');
    host.kill('SIGKILL');
    // Only the watcher outside the host is left to end them.
    await waitFor(() => allGone([agentPid, plain, stubborn, grandchild]), 'every child that left the agent\'s group to be gone', 15_000);
  });
});

describe('processes an agent\'s command started outside its process group', () => {
  test('end when the command is killed', { timeout: 30_000 }, async (t) => {
    const command = await CommandProcess.start({ file: process.execPath, args: ['-e', AGENT], env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd(), outputByteLimit: 10_000 });
    const pids = await waitFor(() => (command.output.text(false).includes(']') ? (JSON.parse(command.output.text(false)) as number[]) : undefined), 'the pids of the command\'s children', 15_000);
    t.after(() => pids.forEach((pid) => isAlive(pid) && process.kill(pid, 'SIGKILL')));
    assert.ok(pids.every(isAlive));
    await command.kill();
    await waitFor(() => allGone(pids), 'every child that left the command\'s group to be gone', 10_000);
  });
});
