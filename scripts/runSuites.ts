// `node --import tsx scripts/runSuites.ts RESULTS_DIR FOLDER[=N]|--gate=CMD...`: the test run of
// scripts/test.sh. Runs every FOLDER/*.test.ts, one file at a time unless the folder says `=N` (N
// files at once), and closes with a plain `N passed, M failed` line read from this run's own TAP
// summaries. Consecutive folders with the same N go in one node:test run, in the order given. A
// `--gate=CMD` is a shell command that must succeed before the folders after it run (test.sh waits
// there for the code-server install it started in the background); if it fails, the run stops
// with an error and no closing line. The
// line must not lie: a cancelled test (a timeout, a file that never finished) counts as failed,
// skipped and todo tests are printed apart from the passes, a folder with no test file is an error
// rather than a suite silently dropped, and a summary left by an earlier run can never be read as
// this one's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const COUNTS = ['pass', 'fail', 'cancelled', 'skipped', 'todo'] as const;
type Counts = Record<(typeof COUNTS)[number], number>;

/** Every `*.test.ts` of each folder, or the folders that have none. */
function suiteFiles(folders: string[]): { files: string[]; empty: string[] } {
  const files: string[] = [];
  const empty: string[] = [];
  for (const folder of folders) {
    const found = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.test.ts')).sort() : [];
    if (found.length === 0) empty.push(folder);
    files.push(...found.map((name) => join(folder, name)));
  }
  return { files, empty };
}

/** The run's closing counts (the last `# pass N` etc. of the TAP file), or undefined when the file is missing or has none. */
function readCounts(summary: string): Counts | undefined {
  const text = existsSync(summary) ? readFileSync(summary, 'utf8') : '';
  const counts = {} as Counts;
  for (const name of COUNTS) {
    const values = [...text.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))];
    const last = values.at(-1)?.[1];
    if (last === undefined) return undefined;
    counts[name] = Number(last);
  }
  return counts;
}

/** A folder argument: its path, and how many of its files run at once (`folder=2`; 1 by default). */
function folderOf(argument: string): { folder: string; concurrency: number } {
  const [, folder = argument, count] = /^(.*?)(?:=(\d+))?$/.exec(argument) ?? [];
  return { folder, concurrency: count === undefined ? 1 : Math.max(1, Number(count)) };
}

interface Group {
  folders: string[];
  concurrency: number;
  /** A command that must succeed before this group runs. */
  gate?: string;
}

/** Consecutive folders with the same concurrency and no gate between them, as one node:test run each. */
function groupsOf(argumentsGiven: string[]): Group[] {
  const groups: Group[] = [];
  let gate: string | undefined;
  for (const argument of argumentsGiven) {
    if (argument.startsWith('--gate=')) {
      gate = argument.slice('--gate='.length);
      continue;
    }
    const { folder, concurrency } = folderOf(argument);
    const last = groups.at(-1);
    if (last?.concurrency === concurrency && gate === undefined) last.folders.push(folder);
    else groups.push({ folders: [folder], concurrency, gate });
    gate = undefined;
  }
  return groups;
}

/** One node:test run over `files`; its counts, or undefined when it left no summary. */
function runGroup(files: string[], concurrency: number, summary: string): { status: number | null; counts: Counts | undefined } {
  const run = spawnSync(
    process.execPath,
    [
      '--import', 'tsx', '--test',
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${summary}`,
      `--test-concurrency=${concurrency}`, '--test-timeout=600000',
      ...files,
    ],
    { stdio: 'inherit' },
  );
  return { status: run.status, counts: readCounts(summary) };
}

/** Runs the group's gate, if it has one; false (with the error printed) when it failed. */
function gateOpens(group: Group): boolean {
  if (group.gate === undefined || spawnSync('bash', ['-c', group.gate], { stdio: 'inherit' }).status === 0) return true;
  console.error(`error: ${group.gate} failed, so ${group.folders.join(', ')} did not run`);
  return false;
}

function main(): number {
  const [results, ...folders] = process.argv.slice(2);
  if (!results || folders.length === 0 || folders.at(-1)?.startsWith('--gate=')) {
    console.error('usage: node --import tsx scripts/runSuites.ts RESULTS_DIR FOLDER[=N]|--gate=CMD...');
    return 2;
  }
  const groups = groupsOf(folders).map((group) => ({ ...group, ...suiteFiles(group.folders) }));
  const empty = groups.flatMap((group) => group.empty);
  if (empty.length > 0) {
    console.error(`error: no *.test.ts file in ${empty.join(', ')}: a suite would be silently dropped`);
    return 2;
  }
  mkdirSync(results, { recursive: true });
  for (const name of readdirSync(results)) if (/^summary.*\.tap$/.test(name)) rmSync(join(results, name), { force: true });
  const total: Counts = { pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  let failedRun = false;
  for (const [index, group] of groups.entries()) {
    if (!gateOpens(group)) return 1;
    const summary = join(results, `summary-${index + 1}.tap`);
    const { status, counts } = runGroup(group.files, group.concurrency, summary);
    if (!counts) {
      console.error(`error: the run left no test summary in ${summary}`);
      return 1;
    }
    for (const name of COUNTS) total[name] += counts[name];
    if (status !== 0) failedRun = true;
  }
  console.log(`${total.skipped} skipped, ${total.todo} todo, ${total.cancelled} cancelled (counted as failed)`);
  console.log(`${total.pass} passed, ${total.fail + total.cancelled} failed`);
  if (failedRun) return 1;
  return total.fail + total.cancelled > 0 ? 1 : 0;
}

process.exitCode = main();
