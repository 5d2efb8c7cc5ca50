// `node --import tsx scripts/runSuites.ts RESULTS_DIR FOLDER...`: the test run of scripts/test.sh.
// Runs every FOLDER/*.test.ts in one node:test run, one file at a time, and closes with a plain
// `N passed, M failed` line read from this run's own TAP summary. The closing line must not lie:
// a cancelled test (a timeout, a file that never finished) counts as failed, skipped and todo
// tests are printed apart from the passes, a folder with no test file is an error rather than a
// suite silently dropped, and a summary left by an earlier run can never be read as this one's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
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

function main(): number {
  const [results, ...folders] = process.argv.slice(2);
  if (!results || folders.length === 0) {
    console.error('usage: node --import tsx scripts/runSuites.ts RESULTS_DIR FOLDER...');
    return 2;
  }
  const { files, empty } = suiteFiles(folders);
  if (empty.length > 0) {
    console.error(`error: no *.test.ts file in ${empty.join(', ')}: a suite would be silently dropped`);
    return 2;
  }
  mkdirSync(results, { recursive: true });
  const summary = join(results, 'summary.tap');
  rmSync(summary, { force: true });
  const run = spawnSync(
    process.execPath,
    [
      '--import', 'tsx', '--test',
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${summary}`,
      '--test-concurrency=1', '--test-timeout=600000',
      ...files,
    ],
    { stdio: 'inherit' },
  );
  const counts = readCounts(summary);
  if (!counts) {
    console.error(`error: the run left no test summary in ${summary}`);
    return 1;
  }
  console.log(`${counts.skipped} skipped, ${counts.todo} todo, ${counts.cancelled} cancelled (counted as failed)`);
  console.log(`${counts.pass} passed, ${counts.fail + counts.cancelled} failed`);
  if (run.status !== 0) return run.status ?? 1;
  return counts.fail + counts.cancelled > 0 ? 1 : 0;
}

process.exitCode = main();
