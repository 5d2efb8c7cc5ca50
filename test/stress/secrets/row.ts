/**
 * The `secrets` row: every credential format in every position it was found leaking, through
 * every output that position reaches (traffic channel, exports, the log, exit notices, Copy
 * report, transcripts on disk), credentials cut at every boundary between two pieces of every
 * stream (message chunks, terminal_output deltas, tool call contents, terminal/output answers)
 * and shown with the pieces together or 500 ms apart, and look-alikes that must come out
 * unharmed. A case fails for any leak, or for damage done to a look-alike.
 */
import { secretCases } from '../../support/secretCases';
import { CASES, stopped, type StressRow } from '../row';

/** Cases between looks at the time budget (each case is synchronous). */
const SLICE = 100;

export const secretsRow: StressRow = {
  name: 'secrets',
  budgetSeconds: { quick: 30, full: 120 },
  minimums: { quick: { [CASES]: 1500 }, full: { [CASES]: 4500 } },
  async run(options, tally) {
    const all = secretCases();
    // Quick: every third case, which still meets each format and each position.
    const cases = options.quick ? all.filter((_, index) => index % 3 === 0) : all;
    for (let start = 0; start < cases.length && !stopped(options); start += SLICE) {
      for (const item of cases.slice(start, start + SLICE)) {
        const problem = item.run();
        tally.record(problem && `${item.name}: ${problem}`);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    tally.note(`${cases.length} of ${all.length} cases (credential formats × positions × outputs, credentials cut in every stream, look-alikes)`);
  },
};
