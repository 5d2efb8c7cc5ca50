import { markdownRow } from './markdown/row';
import { pathsRow } from './paths/row';
import { projectFilesRow } from './projectFiles/row';
import { secretsRow } from './secrets/row';
import { undoRow } from './undo/row';
import type { StressRow } from './row';

/** A row whose case corpus is not in the tree: it fails, so the gap is counted rather than skipped. */
function corpusMissing(name: string, corpus: string): StressRow {
  return {
    name,
    budgetSeconds: { quick: 5, full: 5 },
    run: async (_options, tally) => tally.fail(`corpus missing: ${corpus}`),
  };
}

/** The rows, in the order they run. */
export const ROWS: readonly StressRow[] = [
  corpusMissing('frames', 'test/support/faultCases.ts'),
  corpusMissing('kills', 'test/support/faultCases.ts'),
  pathsRow,
  undoRow,
  markdownRow,
  secretsRow,
  projectFilesRow,
];
