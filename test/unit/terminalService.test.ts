import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { SessionController } from '../../src/conversation/sessionController';
import { terminalPrompt, type TerminalScript } from '../support/scenarios/terminals';
import { tempWorkspace } from '../support/sessionBuilders';
import { PROCESS_TREE_SCRIPT, isAlive, pidsIn, scriptResult, terminalSession } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

const workspace = tempWorkspace({ after }, 'tandem-terminals-');
mkdirSync(join(workspace, 'sub'));

async function run(session: SessionController, script: TerminalScript) {
  await session.prompt(terminalPrompt(script));
  return scriptResult(session);
}

describe('terminal/* served by Tandem, driven by the scripted agent', () => {
  test('create, output with colours, wait for the exit code, release: output stays visible', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const result = await run(session, {
      create: { command: 'sh', args: ['-c', "printf 'hello\\n'; printf '\\033[31mred\\033[0m\\n'; exit 3"] },
      toolCall: true,
      steps: ['wait', 'output', 'release', 'output'],
    });
    const [wait, output, release, afterRelease] = result.results;
    assert.deepEqual(wait, { step: 'wait', exitCode: 3, signal: null });
    assert.equal(output?.output, 'hello\n\u001b[31mred\u001b[0m\n');
    assert.equal(output?.truncated, false);
    assert.deepEqual(output?.exitStatus, { exitCode: 3, signal: null });
    assert.deepEqual(release, { step: 'release' });
    assert.equal(afterRelease?.code, -32602, 'a released terminal is gone for the agent');
    const id = result.terminalId as string;
    const view = await waitFor(() => session.terminalDisplays.view(id)?.released && session.terminalDisplays.view(id), 'the release to show');
    assert.equal(view.exitCode, 3);
    assert.equal(view.origin, 'client');
    assert.match(view.toolCallId ?? '', /^terminal-call-/);
    assert.equal(session.terminalDisplays.output(id), 'hello\n\u001b[31mred\u001b[0m\n', 'the card keeps the output');
    const card = session.thread.toolCall(view.toolCallId as string);
    assert.deepEqual(card?.content, [{ type: 'terminal', terminalId: id }]);
  });

  test('kill ends a running command; the terminal stays readable with the signal', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const result = await run(session, { create: { command: 'sleep', args: ['1000'] }, steps: ['sleep:100', 'output', 'kill', 'output', 'wait', 'release'] });
    const [, running, kill, killed, wait] = result.results;
    assert.equal(running?.exitStatus, undefined, 'no exit status while running');
    assert.deepEqual(kill, { step: 'kill' });
    assert.deepEqual(killed?.exitStatus, { exitCode: null, signal: 'SIGTERM' });
    assert.deepEqual(wait, { step: 'wait', exitCode: null, signal: 'SIGTERM' });
  });

  test('commands get the user env, the agent env, no pager, no stdin, and the requested cwd', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const result = await run(session, {
      create: { command: 'echo "$PAGER|$GIT_PAGER|$TERM|$MY_VAR|$(pwd)"; read line; echo "read:$?"', env: { MY_VAR: '42' }, cwd: join(workspace, 'sub') },
      steps: ['wait', 'output'],
    });
    assert.equal(result.results[1]?.output, `cat|cat|xterm-256color|42|${join(workspace, 'sub')}\nread:1\n`);
  });

  test('a cwd outside the workspace is refused; a missing program is an error, not a hang', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const outside = await run(session, { create: { command: 'ls', cwd: '/' }, steps: [] });
    assert.equal(outside.results[0]?.code, -32602);
    assert.match(String(outside.results[0]?.error), /outside the workspace/);
    const missing = await run(session, { create: { command: 'no-such-program-tandem', args: ['x'] }, steps: [] });
    assert.match(String(missing.results[0]?.error), /cannot run no-such-program-tandem/);
  });

  test('output over a 1 KB limit of multi-byte characters is truncated at a character boundary', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    // Writes a 60 KB stream of 2-, 3- and 4-byte characters in odd-sized byte slices, so reads split characters.
    const script = "const b = Buffer.from('é€😀'.repeat(7000) + 'END'); let i = 0; const next = () => { if (i >= b.length) return; const n = 1 + (i % 13); process.stdout.write(b.subarray(i, i + n), next); i += n; }; next();";
    const result = await run(session, { create: { command: process.execPath, args: ['-e', script], outputByteLimit: 1024 }, steps: ['wait', 'output'] });
    const output = result.results[1];
    const text = String(output?.output);
    assert.equal(output?.truncated, true);
    assert.ok(Buffer.byteLength(text) <= 1024 && Buffer.byteLength(text) >= 1021, `about 1 KB (${Buffer.byteLength(text)} bytes)`);
    assert.ok(!text.includes('\uFFFD'), 'no split character');
    assert.ok(text.endsWith('😀END'));
    assert.ok(('é€😀'.repeat(7000) + 'END').endsWith(text), 'exactly the newest characters');
  });

  test('50 MB of output with a 64 KB limit keeps memory bounded', async (t) => {
    // What is kept, after a full collection, not the peak: garbage waiting for the collector depends
    // on the machine's load (the peak is a figure of `npm run bench -- terminal`).
    const collect = fullCollection();
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    collect();
    const base = process.memoryUsage();
    const result = await run(session, {
      create: { command: "head -c 52428800 /dev/zero | tr '\\0' x", outputByteLimit: 64 * 1024 },
      steps: ['wait', 'output'],
    });
    const output = result.results[1];
    assert.deepEqual(result.results[0], { step: 'wait', exitCode: 0, signal: null });
    assert.equal(String(output?.output).length, 64 * 1024);
    assert.equal(output?.truncated, true);
    assert.equal(session.terminalDisplays.view(result.terminalId as string)?.truncated, true);
    collect();
    const now = process.memoryUsage();
    const kept = now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers;
    assert.ok(kept < 8 * 1024 * 1024, `${(kept / 1024 / 1024).toFixed(1)} MB kept after 50 MB went through`);
  });
});

describe('nothing a command started survives', () => {
  const treeScript = (steps: string[]): TerminalScript => ({ create: { command: process.execPath, args: ['-e', PROCESS_TREE_SCRIPT] }, steps: ['waitOutput:pids:', 'sleep:500', ...steps] });

  /** Starts the process tree in a turn and resolves its pids once printed. */
  async function startTree(session: SessionController, steps: string[]): Promise<{ pids: number[]; turn: Promise<void> }> {
    const turn = session.prompt(terminalPrompt(treeScript(steps)));
    const pids = await waitFor(() => {
      const [terminal] = session.terminalDisplays.snapshot();
      return terminal ? pidsIn(terminal.output) : undefined;
    }, 'the process tree pids', 15_000);
    assert.equal(pids.length, 4);
    assert.ok(pids.every(isAlive), 'the whole tree runs');
    return { pids, turn };
  }

  const allGone = (pids: number[]) => waitFor(() => pids.every((pid) => !isAlive(pid)) || undefined, `pids ${pids.join(',')} to be gone`, 10_000);

  test('after terminal/kill', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const { pids, turn } = await startTree(session, ['kill', 'release']);
    await turn;
    await allGone(pids);
    assert.equal(scriptResult(session).results.some((result) => result.error), false);
  });

  test('after terminal/release', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const { pids, turn } = await startTree(session, ['release']);
    await turn;
    await allGone(pids);
  });

  test('after the user cancels the turn', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const { pids, turn } = await startTree(session, ['wait']);
    await session.cancel();
    await turn;
    await allGone(pids);
    const last = session.thread.snapshot().at(-1);
    assert.equal(last?.kind === 'turnEnded' && last.stopReason, 'cancelled');
  });

  test('after the agent process is killed', async (t) => {
    const session = terminalSession(workspace);
    t.after(() => session.dispose());
    const { pids, turn } = await startTree(session, ['wait']);
    process.kill(session.agentPid as number, 'SIGKILL');
    await turn;
    await allGone(pids);
    assert.equal(session.connectionView.phase, 'exited');
  });

  test('after the session ends', async () => {
    const session = terminalSession(workspace);
    const { pids, turn } = await startTree(session, ['wait']);
    session.dispose();
    await turn;
    await allGone(pids);
  });

  test('after the editor dies without cleanup (window closed, host killed)', async () => {
    // A stand-in extension host: serves one terminal with the process tree, prints its pids, then is SIGKILLed.
    const host = `
      require(${JSON.stringify(require.resolve('tsx/cjs'))});
      const { TerminalService } = require(${JSON.stringify(require.resolve('../../src/terminals/terminalService'))});
      const { TerminalDisplays } = require(${JSON.stringify(require.resolve('../../src/terminals/terminalDisplays'))});
      const displays = new TerminalDisplays();
      const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
      const service = new TerminalService({ cwd: process.cwd(), roots: () => [process.cwd()], displays, logger });
      displays.onEvent((event) => { if (event.type === 'output') process.stdout.write(event.data); });
      service.start({ command: process.execPath, args: ['-e', ${JSON.stringify(PROCESS_TREE_SCRIPT)}] });
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['-e', host], { cwd: workspace, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const pids = await waitFor(() => pidsIn(output), 'pids from the stand-in host', 20_000);
    assert.ok(pids.every(isAlive));
    child.kill('SIGKILL');
    await waitFor(() => pids.every((pid) => !isAlive(pid)) || undefined, 'the orphaned tree to be ended', 15_000);
  });
});

/** A full garbage collection, made available to this test process without a command-line flag. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
