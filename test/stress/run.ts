/**
 * `npm run stress [-- --quick] [row ...]`: the attack and fault rows, in order, each bounded in
 * time, all on 127.0.0.1. Each row prints `STRESS <row>: tried N, failures M` and its detail
 * lines (the first failures, its figures, its time) on stdout; progress goes to stderr. The exit
 * code is 1 when any row failed. `--quick` runs small counts of every row (what `npm test` runs).
 */
import { ROWS } from './rows';
import { runRow } from './runner';

function parseArguments(argv: readonly string[]): { quick: boolean; names: Set<string> } {
  const names = new Set<string>();
  let quick = false;
  for (const arg of argv) {
    if (arg === '--quick') quick = true;
    else if (ROWS.some((row) => row.name === arg)) names.add(arg);
    else throw new Error(`unknown option or row ${arg} (known: --quick ${ROWS.map((row) => row.name).join(' ')})`);
  }
  return { quick, names };
}

async function main(): Promise<number> {
  const { quick, names } = parseArguments(process.argv.slice(2));
  const rows = names.size === 0 ? ROWS : ROWS.filter((row) => names.has(row.name));
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  let failed = 0;
  for (const row of rows) {
    progress(`stress: ${row.name}${quick ? ' (quick)' : ''}…`);
    const report = await runRow(row, { quick, progress: (line) => progress(`  ${row.name}: ${line}`) });
    process.stdout.write(`${report.lines.join('\n')}\n`);
    if (report.failures > 0) failed++;
  }
  process.stdout.write(`STRESS total: ${rows.length - failed} of ${rows.length} rows held\n`);
  return failed > 0 ? 1 : 0;
}

// A row that ran out of time may leave a handle open: the figures are printed, so exit.
main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
