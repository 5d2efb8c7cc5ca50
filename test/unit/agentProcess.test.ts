import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentProcess } from '../../src/acp/agentProcess';
import { describeExit } from '../../src/acp/agentExit';
import { waitFor } from '../support/waitFor';
import { isAlive } from '../support/terminalHarness';


const node = (script: string) => new AgentProcess({ command: process.execPath, args: ['-e', script], env: {}, cwd: process.cwd() });

describe('AgentProcess', () => {
  test('a crash reports the exit code and the last stderr lines', async () => {
    const agent = node('console.error("warming up"); console.error("fatal: out of cheese"); process.exit(4)');
    const exit = await agent.exited;
    assert.equal(exit.code, 4);
    assert.equal(exit.requested, false);
    assert.deepEqual(exit.stderrTail.slice(-2), ['warming up', 'fatal: out of cheese']);
    assert.equal(describeExit('Test agent', exit), 'Test agent exited with code 4. Last output: warming up / fatal: out of cheese');
  });

  test('a signal is named', async () => {
    const agent = node('process.kill(process.pid, "SIGSEGV")');
    const exit = await agent.exited;
    assert.equal(exit.signal, 'SIGSEGV');
    assert.match(describeExit('X', exit), /^X was killed by SIGSEGV\./);
  });

  test('stderr is kept in a bounded tail, even without newlines', async () => {
    const agent = node('for (let i = 0; i < 5000; i++) console.error("line " + i + " " + "x".repeat(100)); process.stderr.write("y".repeat(100000)); setTimeout(() => {}, 10)');
    const exit = await agent.exited;
    assert.ok(exit.stderrTail.length <= 20);
    assert.ok(agent.stderrTail(1000).length <= 200, 'at most 200 lines are kept');
    assert.ok(agent.stderrTail(1000).join('').length <= 300 * 1024);
    assert.ok(agent.stderrTail(1000).some((line) => line.startsWith('line 4999')));
  });

  test('stop ends the agent and every process it started, even ones that ignore SIGTERM', async () => {
    const agent = node(`
      const { spawn } = require('node:child_process');
      const a = spawn('sleep', ['1000'], { stdio: 'ignore' });
      const b = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      process.on('SIGTERM', () => {});
      console.log(JSON.stringify([a.pid, b.pid]));
      setInterval(() => {}, 1000);
    `);
    let output = '';
    agent.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const pids = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'child pids');
    assert.ok(pids.every(isAlive));
    const exit = await agent.stop();
    assert.equal(exit.requested, true);
    await waitFor(() => pids.every((pid) => !isAlive(pid)) || undefined, 'children to be gone', 5000);
    assert.ok(!isAlive(agent.pid ?? 0));
  });

  test('a command that cannot be spawned reports why', async () => {
    const agent = new AgentProcess({ command: '/nonexistent/agent', args: [], env: {}, cwd: process.cwd() });
    const exit = await agent.exited;
    assert.match(exit.spawnError ?? '', /ENOENT/);
    assert.match(describeExit('Ghost', exit), /^Ghost could not be started: .*ENOENT/);
  });
});

describe('AgentProcess when the editor dies', () => {
  test('an agent whose host is killed without cleanup is ended with its children', async () => {
    // A stand-in extension host: starts an agent that starts a child, prints the pids, then is SIGKILLed.
    const host = `
      require('tsx/cjs');
      const { AgentProcess } = require(${JSON.stringify(require.resolve('../../src/acp/agentProcess'))});
      const agent = new AgentProcess({ command: process.execPath, args: ['-e', "const c = require('node:child_process').spawn('sleep', ['1000'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000)"], env: {}, cwd: process.cwd() });
      agent.stdout.once('data', (d) => console.log(JSON.stringify([agent.pid, Number(String(d).trim())])));
      setInterval(() => {}, 1000);
    `;
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', host], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const pids = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'agent pids', 15_000);
    assert.ok(pids.every(isAlive));
    child.kill('SIGKILL');
    await waitFor(() => pids.every((pid) => !isAlive(pid)) || undefined, 'the orphaned agent and its child to be ended', 10_000);
  });
});
