/**
 * The `paths` row: attempts to make `fs/*` read or write outside the workspace (`..`, absolute
 * paths, file URIs, links of every kind, a link swapped during reads, case and Unicode look-alikes,
 * NUL, pipes, sockets and devices) against the fs service, where the user never says yes. A case
 * fails when anything outside was served or changed, or when it held the host past the stall bound.
 */
import { runPathEscapeCases } from '../../support/pathEscapeCases';
import type { StressRow } from '../row';

const ATTEMPTS = 'escape attempts';
const RACING = 'reads raced by link swaps';
const RACING_READS = { quick: 200, full: 5_000 } as const;

const STALL_MS = 2_000;

export const pathsRow: StressRow = {
  name: 'paths',
  budgetSeconds: { quick: 60, full: 120 },
  minimums: { quick: { [ATTEMPTS]: 50, [RACING]: RACING_READS.quick }, full: { [ATTEMPTS]: 50, [RACING]: RACING_READS.full } },
  async run(options, tally) {
    const report = await runPathEscapeCases({ racingReads: options.quick ? RACING_READS.quick : RACING_READS.full, stallMs: STALL_MS, signal: options.signal });
    for (const outcome of report.outcomes) {
      const failed = outcome.verdict === 'escaped' || outcome.verdict === 'stalled';
      tally.record(failed ? `${outcome.name}: ${outcome.verdict}, ${outcome.detail}` : undefined, ATTEMPTS);
    }
    const { racing } = report;
    for (let read = 0; read < racing.reads; read++) {
      tally.record(read < racing.servedOutside ? `a read raced by a link swap served the outside file (${racing.servedOutside} of ${racing.reads} reads)` : undefined, RACING);
    }
    const refused = report.outcomes.filter((outcome) => outcome.verdict === 'refused').length;
    const asked = report.outcomes.filter((outcome) => outcome.asked).length;
    tally.note(`${report.outcomes.length} escape attempts: ${refused} refused (${asked} after asking the user, who said no), ${report.outcomes.length - refused - report.escaped.length - report.stalled.length} served inside; ${racing.reads} reads raced by link swaps: ${racing.servedInside} inside, ${racing.refused} refused, ${racing.servedOutside} outside`);
  },
};
