/**
 * A diff the agent sent (tool call content of type diff) as a compact unified diff, for the
 * edit's card and for the permission it asks: computed where it is shown, from the texts the
 * thread already carries, bounded in time (an edit-length budget) and in lines shown.
 */
import { structuredPatch } from 'diff';
import { type ToolCallView, type ToolContentView } from './viewModel';
import { fileChangingKinds, type ToolKindView } from './toolKinds';

export type DiffContent = Extract<ToolContentView, { type: 'diff' }>;

export type DiffLineKind = 'added' | 'removed' | 'context';

export interface DiffLineView {
  kind: DiffLineKind;
  text: string;
}

export interface DiffHunkView {
  /** 1-based first lines on each side. */
  oldStart: number;
  newStart: number;
  lines: DiffLineView[];
}

export interface AgentDiffView {
  path: string;
  /** The agent said the file did not exist (oldText null). */
  newFile: boolean;
  added: number;
  removed: number;
  hunks: DiffHunkView[];
  /** Changed or context lines left out of `hunks` to keep the view small. */
  omittedLines: number;
}

/** What a permission on a file-changing tool call shows about the change. */
export type PermissionChangeView =
  | { kind: 'diffs'; diffs: AgentDiffView[] }
  | { kind: 'noDiff'; sentence: string };

const CONTEXT_LINES = 3;
/**
 * Past this many inserted + deleted lines the texts are shown as replaced, not diffed. jsdiff's
 * cost grows with the budget times the lines, and faster than that near the budget: about 1e6
 * budget-lines keep the worst case (a rewritten file) near 50 ms, and scattered edits of a long
 * file still diff.
 */
const EDIT_BUDGET_LINES = 1_000_000;
const MIN_EDIT_LENGTH = 100;
const MAX_EDIT_LENGTH = 400;
const MAX_SHOWN_LINES = 400;
const MAX_LINE_CHARS = 1000;

const changeNouns: Partial<Record<ToolKindView, string>> = { edit: 'edit', delete: 'deletion', move: 'move' };

export function agentDiffView(diff: Omit<DiffContent, 'type'>): AgentDiffView {
  const oldText = diff.oldText ?? '';
  const hunks = patchHunks(oldText, diff.newText) ?? [replacedHunk(oldText, diff.newText)];
  const view: AgentDiffView = { path: diff.path, newFile: diff.oldText === null, added: 0, removed: 0, hunks: [], omittedLines: 0 };
  let budget = MAX_SHOWN_LINES;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'added') view.added++;
      if (line.kind === 'removed') view.removed++;
    }
    const shown = hunk.lines.slice(0, Math.max(0, budget));
    view.omittedLines += hunk.lines.length - shown.length;
    budget -= shown.length;
    if (shown.length > 0) view.hunks.push({ ...hunk, lines: shown });
  }
  return view;
}

/**
 * The change a permission is about, for edit, delete and move tool calls (null for other
 * kinds): the agent's diffs, or a plain sentence when it sent none, so nobody allows an edit
 * believing they saw it. `diffOf` lets a view reuse the diffs it already computed.
 */
export function permissionChangeView(tool: ToolCallView, diffOf: (content: DiffContent) => AgentDiffView = agentDiffView): PermissionChangeView | null {
  if (!fileChangingKinds.has(tool.toolKind)) return null;
  const diffs = tool.content.flatMap((content) => (content.type === 'diff' ? [diffOf(content)] : []));
  if (diffs.length > 0) return { kind: 'diffs', diffs };
  const noun = changeNouns[tool.toolKind] ?? 'change';
  return { kind: 'noDiff', sentence: `The agent sent no diff for this ${noun}: you cannot see the change before allowing it.` };
}

/** Unified-diff hunks with a few lines of context; undefined when the texts are too different to diff in time. */
function patchHunks(oldText: string, newText: string): DiffHunkView[] | undefined {
  const lines = lineCount(oldText) + lineCount(newText);
  const maxEditLength = Math.min(MAX_EDIT_LENGTH, Math.max(MIN_EDIT_LENGTH, Math.floor(EDIT_BUDGET_LINES / Math.max(1, lines))));
  const patch = structuredPatch('', '', oldText, newText, undefined, undefined, { context: CONTEXT_LINES, maxEditLength });
  return patch?.hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    newStart: hunk.newStart,
    // "\ No newline at end of file" says nothing a reader of the card needs.
    lines: hunk.lines.flatMap((line) => (line.startsWith('\\') ? [] : [diffLine(line)])),
  }));
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function replacedHunk(oldText: string, newText: string): DiffHunkView {
  const side = (text: string, kind: DiffLineKind) => (text === '' ? [] : text.replace(/\r?\n$/, '').split('\n').map((line) => shownLine(kind, line)));
  return { oldStart: 1, newStart: 1, lines: [...side(oldText, 'removed'), ...side(newText, 'added')] };
}

function diffLine(line: string): DiffLineView {
  const kind: DiffLineKind = line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : 'context';
  return shownLine(kind, line.slice(1));
}

/** A CR before the line break is shown as nothing; very long lines are cut. */
function shownLine(kind: DiffLineKind, text: string): DiffLineView {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return { kind, text: line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters)` : line };
}
