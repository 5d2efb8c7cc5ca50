import { existsSync, readFileSync } from 'node:fs';
import type { FolderScopeParts } from '../../src/workspace/workspaceScope';
import type { AgentChange, KillReview } from './faultKills';
import { reviewedFiles } from './reviewHarness';

/** A change seen at the session's end is compared then, off the exit path: it may reach the ledger a moment later. */
const REVIEW_SETTLE_MS = 2_000;

const onDisk = (path: string): string | null => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/**
 * Every change a killed agent made must be in review with the bytes from before as its base (so
 * Undo restores them) and what the disk holds now as its current text. The disk is read again
 * at each look, as the ledger is: a write Tandem began for the agent before it died still runs
 * after the kill (its file truncated, then written), and both settle when it ends.
 */
export function killReview(workspace: string): KillReview {
  const { ledger, files } = reviewedFiles(workspace);
  // Which files the agent named to Tandem before it died: a change it never announced is one no client could know of.
  const announced = new Set<string>();
  const scope: FolderScopeParts = {
    files: (context) => {
      context.onUpdate((update) => {
        for (const location of 'locations' in update ? update.locations ?? [] : []) announced.add(location.path);
      });
      return files(context);
    },
  };
  const missing = (change: AgentChange): string | undefined => {
    if (!ledger.file(change.path)) return `${change.path} was changed by the agent but is not in review (${announced.has(change.path) ? 'its edit tool call reached Tandem' : 'its edit tool call never reached Tandem'})`;
    const base = ledger.baseText(change.path);
    if (base !== change.before) return `${change.path} is in review, but Undo would give ${JSON.stringify(base)} instead of what it held before, ${JSON.stringify(change.before)}`;
    const current = ledger.currentText(change.path);
    const disk = onDisk(change.path);
    if (current !== disk) return `${change.path} is in review as ${JSON.stringify(current)}, but the disk holds ${JSON.stringify(disk)}`;
    return undefined;
  };
  const check = async (changes: readonly AgentChange[]) => {
    const deadline = Date.now() + REVIEW_SETTLE_MS;
    while (Date.now() < deadline && changes.some((change) => missing(change) !== undefined)) await new Promise((resolve) => setTimeout(resolve, 50));
    return changes.flatMap((change) => missing(change) ?? []);
  };
  return { scope, check };
}
