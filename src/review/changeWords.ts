import type { ChangeOriginView } from './pendingChanges';

// How a change reached the file, in words: the edit cards' badge and the fidelity report both say
// it with these, so the two can never describe the same file differently.

const ORIGIN_WORDS: Record<ChangeOriginView, string> = { editor: 'through the editor', disk: 'written to disk by the agent' };

/** ACP has no request for deleting a file: a deletion is always the agent's own, on disk. */
const DELETED_WORDS = 'deleted on disk by the agent';

/** How a change from `origin` reached the file (which it `deleted`, or not), e.g. "through the editor". */
export function changeWords(origin: ChangeOriginView, deleted: boolean): string {
  return deleted ? DELETED_WORDS : ORIGIN_WORDS[origin];
}
