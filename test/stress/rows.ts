import { framesRow, killsRow } from './faults/rows';
import { markdownRow } from './markdown/row';
import { pathsRow } from './paths/row';
import { projectFilesRow } from './projectFiles/row';
import { secretsRow } from './secrets/row';
import { undoRow } from './undo/row';
import type { StressRow } from './row';

/** The rows, in the order they run. */
export const ROWS: readonly StressRow[] = [
  framesRow,
  killsRow,
  pathsRow,
  undoRow,
  markdownRow,
  secretsRow,
  projectFilesRow,
];
