import { assertNever } from '../util/assertNever';
import type { ThreadDelta, ThreadEntry } from './viewModel';

/** Streamed text lands at the end of the thread, so the search starts there. */
function lastIndexOfId(entries: readonly ThreadEntry[], id: string): number {
  for (let index = entries.length - 1; index >= 0; index--) if (entries[index]?.id === id) return index;
  return -1;
}

/**
 * The entry list after the host's deltas, as the panel shows it. Neither the list nor its entries
 * are changed: changed entries are new objects, so a caller can tell what to draw again. An update
 * of an entry the list does not have adds it (the panel shows what the host says it has); text
 * for an entry without text, or for an unknown one, is dropped.
 */
export function applyThreadDeltas(entries: readonly ThreadEntry[], deltas: readonly ThreadDelta[]): ThreadEntry[] {
  let next = [...entries];
  for (const delta of deltas) {
    switch (delta.type) {
      case 'entryAdded':
        next.push(delta.entry);
        break;
      case 'entryUpdated': {
        const index = lastIndexOfId(next, delta.entry.id);
        if (index < 0) next.push(delta.entry);
        else next[index] = delta.entry;
        break;
      }
      case 'textAppended': {
        const index = lastIndexOfId(next, delta.entryId);
        const entry = next[index];
        if (entry && (entry.kind === 'user' || entry.kind === 'agentMessage' || entry.kind === 'thought')) next[index] = { ...entry, text: entry.text + delta.text };
        break;
      }
      case 'threadCleared':
        next = [];
        break;
      default:
        assertNever(delta, 'thread delta');
    }
  }
  return next;
}
