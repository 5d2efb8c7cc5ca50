/**
 * What a file held before an agent's edit, worked out from the agent's own diffs, for when the
 * only copy taken already shows its result (the write landed before the tool call was seen).
 * Diffs are whole-file (Gemini, a new file, a deletion) or a fragment (Claude's, Codex's
 * edits): a fragment is undone only where it cannot be misplaced.
 */

export interface AgentDiff {
  /** null: the agent says the file did not exist. */
  oldText: string | null;
  newText: string;
  /** Gemini says what the diff does in `_meta.kind`. */
  kind?: 'add' | 'modify' | 'delete';
}

/**
 * The text before all of `diffs` (applied in this order) given the text after them (null = no
 * file); null = the file did not exist; undefined when the diffs do not tell, or tell of no change.
 */
export function textBeforeDiffs(after: string | null, diffs: readonly AgentDiff[]): string | null | undefined {
  let text = after;
  for (let i = diffs.length - 1; i >= 0; i--) {
    const diff = diffs[i];
    const before = diff && undoDiff(text, diff);
    if (before === undefined) return undefined;
    text = before;
  }
  return text === after ? undefined : text;
}

/**
 * True when the diffs say the agent changed something and the file looks like the last one
 * was applied: its new text is there and the text it replaced is gone.
 */
export function looksApplied(after: string | null, diffs: readonly AgentDiff[]): boolean {
  const last = diffs[diffs.length - 1];
  if (!last || !diffs.some((diff) => diff.oldText !== diff.newText || diff.kind !== undefined)) return false;
  if (after === null || after === last.newText) return after === last.newText || last.kind === 'delete';
  return last.newText !== '' && after.includes(last.newText) && !stillThere(after, last.oldText, last.newText);
}

function undoDiff(text: string | null, diff: AgentDiff): string | null | undefined {
  const oldText = diff.kind === 'add' ? null : diff.oldText;
  if (text === null) return diff.kind === 'delete' || diff.newText === '' ? (oldText ?? undefined) : undefined;
  if (text === diff.newText) return diff.kind === 'modify' && oldText === null ? undefined : oldText;
  return oldText === null ? undefined : undoFragment(text, oldText, diff.newText);
}

/** `newText` must be in the file exactly once, and `oldText` gone. */
function undoFragment(text: string, oldText: string, newText: string): string | undefined {
  if (newText === '') return undefined;
  const at = text.indexOf(newText);
  if (at < 0 || text.includes(newText, at + 1) || stillThere(text, oldText, newText)) return undefined;
  return text.slice(0, at) + oldText + text.slice(at + newText.length);
}

/** Where the replaced text is still in the file (and the new text does not bring it), the edit did not happen. */
function stillThere(text: string, oldText: string | null, newText: string): boolean {
  return oldText !== null && oldText !== '' && !newText.includes(oldText) && text.includes(oldText);
}
