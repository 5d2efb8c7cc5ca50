import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentProcess } from '../../src/acp/agentProcess';
import { describeExit } from '../../src/acp/agentExit';
import { waitFor } from '../support/waitFor';
import { isAlive } from '../support/terminalHarness';
import { groupMembers } from '../support/processGroups';
import { signalGroup } from '../../src/util/processGroup';

/** `promise`, or a failure naming `what` once `ms` pass: a test that fails must not hang. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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

  test('the agent does not inherit the editor\'s own VSCODE_* and ELECTRON_* variables, but keeps those its settings name', async (t) => {
    const editorVariables = { VSCODE_IPC_HOOK: '/tmp/vscode-ipc.sock', VSCODE_PID: '1', ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ATTACH_CONSOLE: '1' };
    const saved = Object.keys(editorVariables).map((name) => [name, process.env[name]] as const);
    Object.assign(process.env, editorVariables);
    t.after(() => {
      for (const [name, value] of saved) if (value === undefined) delete process.env[name]; else process.env[name] = value;
    });
    const agent = new AgentProcess({
      command: process.execPath, args: ['-e', 'console.log(JSON.stringify(process.env))'], cwd: process.cwd(),
      env: { VSCODE_AGENT_SETTING: 'mine', ELECTRON_RUN_AS_NODE: '1' },
    });
    let output = '';
    agent.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    await agent.exited;
    const env = JSON.parse(output) as Record<string, string>;
    assert.equal(env.VSCODE_IPC_HOOK, undefined);
    assert.equal(env.VSCODE_PID, undefined);
    assert.equal(env.ELECTRON_NO_ATTACH_CONSOLE, undefined);
    assert.equal(env.VSCODE_AGENT_SETTING, 'mine', 'what the agent\'s own env setting names is passed');
    assert.equal(env.ELECTRON_RUN_AS_NODE, '1', 'also when the editor has the same variable');
    assert.equal(env.PATH, process.env.PATH, 'the user\'s environment is inherited');
  });

  test('a command that cannot be spawned reports why', async () => {
    const agent = new AgentProcess({ command: '/nonexistent/agent', args: [], env: {}, cwd: process.cwd() });
    const exit = await agent.exited;
    assert.match(exit.spawnError ?? '', /ENOENT/);
    assert.match(describeExit('Ghost', exit), /^Ghost could not be started: .*ENOENT/);
  });
});

/**
 * An agent that starts a process tree in its group and prints its pids: a plain child, one that
 * ignores SIGTERM and holds the agent's pipes open, and a grandchild through a shell.
 */
const TREE_AGENT = `
  const { spawn } = require('node:child_process');
  const a = spawn('sleep', ['1000'], { stdio: 'ignore' });
  const b = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'inherit' });
  const c = spawn('sh', ['-c', 'sleep 1000 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  c.stdout.once('data', (d) => console.log(JSON.stringify([a.pid, b.pid, c.pid, Number(String(d).trim())])));
  setInterval(() => {}, 1000);
`;

describe('AgentProcess when the agent dies', () => {
  test('a killed agent takes its whole process group with it, children that ignore SIGTERM or hold its pipes included', async (t) => {
    const agent = node(TREE_AGENT);
    t.after(() => signalGroup(agent.pid, 'SIGKILL'));
    let output = '';
    agent.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const pids = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'child pids');
    const pgid = agent.pid ?? 0;
    assert.equal(groupMembers(pgid).length, 5, 'the agent and its four descendants share its group');
    process.kill(pgid, 'SIGKILL');
    const exit = await within(agent.exited, 5000, 'the exit');
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(exit.requested, false);
    await waitFor(() => groupMembers(pgid).length === 0, 'the group to be empty', 5000);
    assert.ok(pids.every((pid) => !isAlive(pid)));
  });

  test('stopping an agent after it died waits no longer than its grace and leaves nothing', async (t) => {
    const agent = node(TREE_AGENT);
    t.after(() => signalGroup(agent.pid, 'SIGKILL'));
    let output = '';
    agent.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    await waitFor(() => output.includes(']'), 'child pids');
    const pgid = agent.pid ?? 0;
    process.kill(pgid, 'SIGKILL');
    await within(agent.exited, 5000, 'the exit');
    const exit = await within(agent.stop(), 5000, 'the stop');
    assert.equal(exit.signal, 'SIGKILL');
    await waitFor(() => groupMembers(pgid).length === 0, 'the group to be empty', 5000);
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

  test('an agent that crashes just before its host is killed still leaves no process of its group', async (t) => {
    // The stand-in host dies the moment it sees the agent's exit, before its grace for SIGTERM
    // ends: only the watcher outside it can still send the SIGKILL.
    const host = `
      require('tsx/cjs');
      const { AgentProcess } = require(${JSON.stringify(require.resolve('../../src/acp/agentProcess'))});
      const agent = new AgentProcess({ command: process.execPath, args: ['-e', ${JSON.stringify(TREE_AGENT)}], env: {}, cwd: process.cwd() });
      agent.stdout.once('data', (d) => console.log(JSON.stringify([agent.pid, ...JSON.parse(String(d))])));
      agent.exited.then(() => process.kill(process.pid, 'SIGKILL'));
      setInterval(() => {}, 1000);
    `;
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', host], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const pids = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'agent pids', 15_000);
    const pgid = pids[0] ?? 0;
    t.after(() => signalGroup(pgid, 'SIGKILL'));
    assert.equal(groupMembers(pgid).length, 5);
    process.kill(pgid, 'SIGKILL');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 'the host to die on the agent\'s exit', 5000);
    await waitFor(() => groupMembers(pgid).length === 0, 'the group to be empty without its host', 10_000);
  });
});
