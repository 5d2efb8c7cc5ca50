/**
 * scripts/runSuites.ts, the run and closing line of `npm test`, against small suites of real
 * node:test files in a temp folder: the closing `N passed, M failed` line is what CI reads, so a
 * cancelled test must count as failed, a skipped one must show apart from the passes, a folder
 * with no test file must stop the run, and a run that leaves no summary must not print one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { REPO_ROOT } from '../support/code-server';
import { tempWorkspace } from '../support/sessionBuilders';

const FIXTURES: Record<string, string> = {
  'passes.test.ts': `test('passes', () => {});`,
  'fails.test.ts': `test('fails', () => { throw new Error('expected failure'); });`,
  // Still busy when its timeout cancels it; the timer lets the file's process end soon after.
  'cancelled.test.ts': `test('times out', { timeout: 300 }, () => new Promise(() => setTimeout(() => {}, 2000)));`,
  'skipped.test.ts': `test('skipped', (t) => { t.skip('not checked: fixture'); });`,
  'todo.test.ts': `test('todo', { todo: true }, () => {});`,
  // The runner itself dies (as when the OOM killer takes it): no summary is ever written.
  'killsRunner.test.ts': `test('kills the runner', () => { process.kill(process.ppid, 'SIGKILL'); return new Promise(() => {}); });`,
  // Each passes only while the other runs: a marker of its own, then the other's within MEET_WAIT_MS.
  'meetsB.test.ts': meets('a', 'b'),
  'meetsA.test.ts': meets('b', 'a'),
};

function meets(mine: string, other: string): string {
  return `import { existsSync, writeFileSync } from 'node:fs';
test('meets the other file', async () => {
  writeFileSync(process.env.MEET_DIR + '/${mine}', '');
  const deadline = Date.now() + Number(process.env.MEET_WAIT_MS);
  while (!existsSync(process.env.MEET_DIR + '/${other}')) {
    if (Date.now() > deadline) throw new Error('the other file never ran at the same time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});`;
}

/** A suite folder under `root` holding the named fixture files. */
function suite(root: string, name: string, files: string[]): string {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  for (const file of files) writeFileSync(join(folder, file), `import test from 'node:test';\n${FIXTURES[file]}\n`);
  return folder;
}

interface Run {
  status: number | null;
  lines: string[];
  stderr: string;
}

/** runSuites.ts as scripts/test.sh runs it, outside this test's own node:test run. */
function runSuites(results: string, folders: string[], extraEnv: Record<string, string> = {}): Run {
  const env = { ...process.env, ...extraEnv };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['--import', 'tsx', join('scripts', 'runSuites.ts'), results, ...folders], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, lines: run.stdout.trimEnd().split('\n'), stderr: run.stderr };
}

/** runSuites with the meeting files' folder under `root`, each file waiting `waitMs` for the other. */
function runMeeting(root: string, folders: string[], waitMs: number): Run {
  const meet = join(root, 'meet');
  mkdirSync(meet);
  return runSuites(join(root, 'results'), folders, { MEET_DIR: meet, MEET_WAIT_MS: String(waitMs) });
}

test('cancelled tests count as failed and skipped ones are printed apart from the passes', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const run = runSuites(join(root, 'results'), [suite(root, 'a', ['passes.test.ts', 'fails.test.ts']), suite(root, 'b', ['cancelled.test.ts', 'skipped.test.ts', 'todo.test.ts'])]);
  assert.deepEqual(run.lines.slice(-2), ['1 skipped, 1 todo, 1 cancelled (counted as failed)', '1 passed, 2 failed']);
  assert.notEqual(run.status, 0);
});

test('an earlier run\'s summary is never read as this run\'s', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const results = join(root, 'results');
  mkdirSync(results);
  writeFileSync(join(results, 'summary-1.tap'), '# pass 99\n# fail 0\n# cancelled 0\n# skipped 0\n# todo 0\n');
  // A test file that cannot be found makes node:test stop before it opens its reporters.
  const folder = suite(root, 'a', []);
  symlinkSync(join(root, 'deleted.test.ts'), join(folder, 'gone.test.ts'));
  const run = runSuites(results, [folder]);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /the run left no test summary/);
  assert.ok(!run.lines.some((line) => /passed/.test(line)), `no closing line: ${run.lines.join('\n')}`);
});

test('a suite folder with no test file stops the run before anything runs', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const results = join(root, 'results');
  const empty = suite(root, 'empty', []);
  const run = runSuites(results, [suite(root, 'a', ['passes.test.ts']), empty]);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, new RegExp(`no \\*\\.test\\.ts file in ${empty}`));
  assert.equal(existsSync(results) && readdirSync(results).some((name) => name.endsWith('.tap')), false, 'nothing ran');
  assert.ok(!run.lines.some((line) => /passed/.test(line)), `no closing line: ${run.lines.join('\n')}`);
});

test('a run that leaves no summary fails without printing counts', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const results = join(root, 'results');
  const run = runSuites(results, [suite(root, 'a', ['passes.test.ts', 'killsRunner.test.ts'])]);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /the run left no test summary/);
  assert.ok(!run.lines.some((line) => /passed/.test(line)), `no closing line: ${run.lines.join('\n')}`);
});

test('a folder given as folder=2 runs two of its files at once; the others stay one at a time, and all are counted', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const together = suite(root, 'together', ['meetsA.test.ts', 'meetsB.test.ts']);
  const alone = suite(root, 'alone', ['passes.test.ts', 'fails.test.ts']);
  const run = runMeeting(root, [`${together}=2`, alone], 20_000);
  assert.deepEqual(run.lines.slice(-2), ['0 skipped, 0 todo, 0 cancelled (counted as failed)', '3 passed, 1 failed']);
  assert.notEqual(run.status, 0);
});

test('the same files one at a time cannot meet: the concurrency is what the folder says', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const run = runMeeting(root, [suite(root, 'together', ['meetsA.test.ts', 'meetsB.test.ts'])], 1_000);
  assert.deepEqual(run.lines.slice(-1), ['1 passed, 1 failed']);
});

test('a gate runs between the folders around it; a failing gate stops the run before the next folder, with no closing line', (t) => {
  const root = tempWorkspace(t, 'tandem-run-suites-');
  const first = suite(root, 'first', ['passes.test.ts']);
  const second = suite(root, 'second', ['passes.test.ts']);
  const opened = join(root, 'gate-opened');
  const passed = runSuites(join(root, 'results'), [first, `--gate=touch ${opened}`, second]);
  assert.equal(passed.status, 0, passed.stderr);
  assert.ok(existsSync(opened), 'the gate ran');
  assert.deepEqual(passed.lines.slice(-1), ['2 passed, 0 failed'], 'both folders ran, the second in a run of its own');
  assert.ok(existsSync(join(root, 'results', 'summary-2.tap')));

  const stopped = runSuites(join(root, 'results-stopped'), [first, '--gate=echo install failed >&2; exit 3', second]);
  assert.notEqual(stopped.status, 0);
  assert.match(stopped.stderr, /install failed[\s\S]*error: echo install failed >&2; exit 3 failed, so .*second did not run/);
  assert.equal(existsSync(join(root, 'results-stopped', 'summary-2.tap')), false, 'the folder after the gate never ran');
  assert.ok(!stopped.lines.some((line) => /passed/.test(line)), `no closing line: ${stopped.lines.join('\n')}`);
});
