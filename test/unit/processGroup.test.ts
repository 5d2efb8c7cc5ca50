import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { groupAlive, signalGroup, startReaper, stopGroup } from '../../src/util/processGroup';
import { newTreeMark, treeEnvironment } from '../../src/util/processTree';
import { groupMembers } from '../support/processGroups';
import { isAlive } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

/**
 * A group leader (not an AgentProcess: nothing in this process ends its group) with a child
 * that ignores SIGTERM and a plain one; resolves with the leader once both children run.
 */
async function groupWithStubbornChild(t: TestContext) {
  const leader = spawn(process.execPath, ['-e', `
    const { spawn } = require('node:child_process');
    const stubborn = spawn('sh', ['-c', 'trap "" TERM; exec sleep 1000'], { stdio: 'ignore' });
    const plain = spawn('sleep', ['1000'], { stdio: 'ignore' });
    setTimeout(() => console.log(JSON.stringify({ stubborn: stubborn.pid, plain: plain.pid })), 200);
    setInterval(() => {}, 1000);
  `], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const pgid = leader.pid ?? 0;
  t.after(() => signalGroup(pgid, 'SIGKILL'));
  const children = await new Promise<{ stubborn: number; plain: number }>((resolve) => leader.stdout.once('data', (data: Buffer) => resolve(JSON.parse(String(data)) as { stubborn: number; plain: number })));
  await waitFor(() => groupMembers(pgid).length === 3, 'the leader and its two children');
  const exited = new Promise<void>((resolve) => leader.once('exit', () => resolve()));
  return { pgid, exited, ...children };
}

/**
 * Holds every thread of libuv's pool (each waits to open a pipe nobody writes), as the editor's
 * file work and other extensions can; they are let go when the test ends.
 */
function occupyThreadPool(t: TestContext): void {
  const folder = mkdtempSync(join(tmpdir(), 'tandem-pool-'));
  const fifo = join(folder, 'fifo');
  spawnSync('mkfifo', [fifo]);
  const waiting = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) }, () => open(fifo, 'r').then((handle) => handle.close()));
  t.after(async () => {
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    await Promise.all(waiting);
    closeSync(writer);
    rmSync(folder, { recursive: true, force: true });
  });
}

describe('process groups', () => {
  test('a dead leader\'s tree is ended while every thread of the host\'s pool is busy', async (t) => {
    // A child that ignores SIGTERM in the group, and one in a session of its own: reached only by the tree's mark.
    const treeMark = newTreeMark();
    const leader = spawn(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      const stubborn = spawn('sh', ['-c', 'trap "" TERM; exec sleep 1000'], { stdio: 'ignore' });
      const apart = spawn('sleep', ['1000'], { stdio: 'ignore', detached: true });
      setTimeout(() => console.log(JSON.stringify([stubborn.pid, apart.pid])), 200);
      setInterval(() => {}, 1000);
    `], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...treeEnvironment(treeMark) } });
    const pgid = leader.pid ?? 0;
    const children = await new Promise<number[]>((resolve) => leader.stdout.once('data', (data: Buffer) => resolve(JSON.parse(String(data)) as number[])));
    t.after(() => {
      signalGroup(pgid, 'SIGKILL');
      for (const pid of children) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    const exited = new Promise<void>((resolve) => leader.once('exit', () => resolve()));
    occupyThreadPool(t);
    process.kill(pgid, 'SIGKILL');
    await exited;
    await stopGroup({ pid: pgid, exited, treeMark }, 300);
    await waitFor(() => children.every((pid) => !isAlive(pid)), 'the stubborn child and the one apart to be ended', 5000);
  });

  test('the watcher of a group that ends with its leader ends it when the leader dies, though this host lives on', async (t) => {
    const { pgid } = await groupWithStubbornChild(t);
    startReaper(pgid, 'leader');
    process.kill(pgid, 'SIGKILL');
    await waitFor(() => groupMembers(pgid).length === 0, 'the group to be empty', 8000);
  });

  test('stopping a group whose leader already died sends SIGTERM, then SIGKILL to what ignored it', async (t) => {
    // SIGTERM first: a child that can end cleanly (Claude Code saving its session) gets the chance.
    const { pgid, exited, stubborn, plain } = await groupWithStubbornChild(t);
    process.kill(pgid, 'SIGKILL');
    await exited;
    await stopGroup({ pid: pgid, exited }, 1000);
    await waitFor(() => !isAlive(plain), 'the plain child to end on SIGTERM', 900);
    await waitFor(() => !isAlive(stubborn) && groupMembers(pgid).length === 0, 'the stubborn child to end on SIGKILL', 3000);
  });

  test('a group is alive while any member is, and not once none is', async (t) => {
    const { pgid, exited } = await groupWithStubbornChild(t);
    assert.equal(groupAlive(pgid), true);
    signalGroup(pgid, 'SIGKILL');
    await exited;
    await waitFor(() => groupMembers(pgid).length === 0, 'the group to be gone');
    // A killed orphan stays a zombie until init reaps it, and a zombie still counts as a member.
    await waitFor(() => !groupAlive(pgid), 'no member left, zombies included', 10_000);
  });
});
