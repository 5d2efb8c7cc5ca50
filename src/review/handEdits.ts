/**
 * Lines of the agent's pending changes that the user then edited by hand. The agent wrote those
 * lines and assumes they are still there, so its next prompt says where they are now, what it
 * wrote and what the user made of them.
 *
 * Per file, the text as the agent left it is kept from the user's first hand edit of the file,
 * with where the agent's lines were in it; the notes are the difference between that text and
 * the file now, where it touches the agent's lines. So a hundred keystrokes are one note, an
 * edit the user takes back is none, and lines the user added or changed beside the agent's are
 * not attributed to it (the ledger's hunks take those in, so they cannot say what the agent wrote).
 */
import { diffLineArrays, type LineEdit } from './lineDiff';
import { LineText, stripEol } from './lineText';
import { editorNote } from './editorNote';

/** A file past this size is tracked without its text: the note then names the file only. */
const MAX_TRACKED_CHARS = 1_000_000;
/** A note is bounded: this many places per file, lines per side and characters per line. */
const MAX_PLACES = 10;
const MAX_LINES = 12;
const MAX_LINE_CHARS = 300;

/** One place where the user edited the agent's lines; `line` is 0-based in the file as it is now. */
export interface HandEdit {
  line: number;
  /** The agent's lines there and the user's (the first few of each; the counts say how many). */
  agent: string[];
  agentCount: number;
  user: string[];
  userCount: number;
}

/** A file's hand edits for the agent; `tooLarge`: the file was too large to keep its text. */
export interface FileHandEdits {
  path: string;
  edits: HandEdit[];
  tooLarge: boolean;
}

/** [start, count] of a run of the agent's lines. */
export type LineRun = [number, number];

export interface TrackedHandEdits {
  /** The file as the agent left it (null: too large to keep), and its agent's lines. */
  agentText: string | null;
  agentLines: LineRun[];
  /** The file now (null: deleted). */
  userText: string | null;
}

/**
 * Tracking from the user's first hand edit of a file, from `before` to `after` (`agentLines`: the
 * pending hunks' lines in `before`). A file too large to keep is tracked, without its text, only
 * from an edit that touches the agent's lines; null until then.
 */
export function startTracking(before: string, after: string | null, agentLines: readonly LineRun[]): TrackedHandEdits | null {
  const runs = agentLines.filter(([, count]) => count > 0).map(([start, count]): LineRun => [start, count]);
  if (before.length <= MAX_TRACKED_CHARS) return { agentText: before, agentLines: runs, userText: after };
  return placesOf(before, after, runs).length > 0 ? { agentText: null, agentLines: [], userText: after } : null;
}

/**
 * The places where the user's edits of a tracked file stand now (none when they came to
 * nothing), after `earlier` ones: those noted before the agent wrote the file again.
 */
export function handEditsOf(path: string, tracked: TrackedHandEdits | undefined, earlier: readonly HandEdit[] = []): FileHandEdits | null {
  const tooLarge = tracked?.agentText === null;
  const now = tracked && !tooLarge ? placesOf(tracked.agentText ?? '', tracked.userText, tracked.agentLines).map((edit) => handEdit(tracked, edit)) : [];
  const edits = [...earlier, ...now].slice(0, MAX_PLACES);
  return edits.length > 0 || tooLarge ? { path, edits, tooLarge } : null;
}

/**
 * The user undid one hunk (`start`, `count`: its lines in the file before the undo; `restored`:
 * the base text put back). The text as the agent left it gets the same undo, so the undone
 * lines are the undo's news, not a hand edit, while other hand edits stay noted.
 */
export function afterUndo(tracked: TrackedHandEdits, start: number, count: number, restored: string, now: string | null): TrackedHandEdits {
  if (tracked.agentText === null) return { ...tracked, userText: now };
  const agent = new LineText(tracked.agentText);
  const edits = diffLineArrays(agent.lines(), new LineText(tracked.userText).lines());
  const from = inAgentText(edits, start, false);
  const to = Math.max(from, inAgentText(edits, start + count, true));
  const restoredCount = new LineText(restored).lineCount;
  const shift = restoredCount - (to - from);
  const agentLines = tracked.agentLines
    .filter(([runStart, runCount]) => runStart + runCount <= from || runStart >= to)
    .map(([runStart, runCount]): LineRun => [runStart >= to ? runStart + shift : runStart, runCount]);
  const agentText = agent.slice(0, from) + restored + agent.slice(to, agent.lineCount);
  return { ...tracked, agentText, agentLines, userText: now };
}

const isText = (item: unknown) => item === null || typeof item === 'string';
const isCount = (item: unknown) => Number.isInteger(item) && (item as number) >= 0;
const isLines = (item: unknown) => Array.isArray(item) && item.every((line) => typeof line === 'string');
const isRun = (item: unknown) => Array.isArray(item) && item.length === 2 && item.every(isCount);
export const isHandEdit = (item: unknown) => typeof item === 'object' && item !== null
  && [(item as HandEdit).line, (item as HandEdit).agentCount, (item as HandEdit).userCount].every(isCount)
  && isLines((item as HandEdit).agent) && isLines((item as HandEdit).user);

/** The stored form, checked: undefined when it is not one this code wrote. */
export function readTracked(value: unknown): TrackedHandEdits | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { agentText, agentLines, userText } = value as Record<string, unknown>;
  const runs = Array.isArray(agentLines) && agentLines.every(isRun);
  return isText(agentText) && isText(userText) && runs ? copyTracked(value as TrackedHandEdits) : undefined;
}

export function copyTracked(tracked: TrackedHandEdits): TrackedHandEdits {
  return {
    agentText: tracked.agentText,
    agentLines: tracked.agentLines.map(([start, count]): LineRun => [start, count]),
    userText: tracked.userText,
  };
}

export function copyHandEdit(edit: HandEdit): HandEdit {
  return { ...edit, agent: [...edit.agent], user: [...edit.user] };
}

/** The note for the agent, one block for all files (`label`: how the agent is told a path). */
export function handEditNote(files: readonly FileHandEdits[], label: (path: string) => string): string {
  const intro = editorNote('the user edited by hand some of the lines you changed. Line numbers are those of the files as they are now; read the files again before editing them.');
  return [intro, ...files.map((file) => fileText(file, label(file.path)))].join('\n\n');
}

function fileText(file: FileHandEdits, label: string): string {
  if (file.tooLarge && file.edits.length === 0) return `${label}: edited by hand (the file is too large to show the lines here).`;
  return file.edits.map((edit) => [
    `${label}, ${placeText(edit)}:`,
    'You wrote:',
    ...side(edit.agent, edit.agentCount, '-'),
    'The user made it:',
    ...side(edit.user, edit.userCount, '+'),
  ].join('\n')).join('\n\n');
}

function placeText(edit: HandEdit): string {
  if (edit.userCount === 0) return `lines removed before line ${edit.line + 1}`;
  return edit.userCount === 1 ? `line ${edit.line + 1}` : `lines ${edit.line + 1}-${edit.line + edit.userCount}`;
}

function side(lines: readonly string[], count: number, sign: string): string[] {
  if (count === 0) return ['(nothing)'];
  const more = count - lines.length;
  return [...lines.map((line) => `${sign} ${line}`), ...(more > 0 ? [`… (${more} more ${more === 1 ? 'line' : 'lines'})`] : [])];
}

function handEdit(tracked: TrackedHandEdits, edit: LineEdit): HandEdit {
  const agent = new LineText(tracked.agentText).lines(edit.aStart, edit.aStart + edit.aCount);
  const user = new LineText(tracked.userText).lines(edit.bStart, edit.bStart + edit.bCount);
  return { line: edit.bStart, agent: excerpt(agent), agentCount: edit.aCount, user: excerpt(user), userCount: edit.bCount };
}

function excerpt(lines: readonly string[]): string[] {
  return lines.slice(0, MAX_LINES).map(stripEol).map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line));
}

/** The edits from `agentText` to `userText` that touch the agent's lines. */
function placesOf(agentText: string, userText: string | null, runs: readonly LineRun[]): LineEdit[] {
  const edits = diffLineArrays(new LineText(agentText).lines(), new LineText(userText).lines());
  return edits.filter((edit) => runs.some((run) => touches(edit, run)));
}

/** An edit touches a run when it changes one of its lines, or inserts lines between two of them. */
function touches(edit: LineEdit, [start, count]: LineRun): boolean {
  if (edit.aCount === 0) return start < edit.aStart && edit.aStart < start + count;
  return edit.aStart < start + count && start < edit.aStart + edit.aCount;
}

/**
 * Where a line boundary of the text now falls in the agent's text. One inside (or touching) an
 * edit falls on that edit's start, or for the end of a range its end, as the ledger's hunks
 * take in the edits that touch them.
 */
function inAgentText(edits: readonly LineEdit[], at: number, end: boolean): number {
  let shift = 0;
  for (const edit of edits) {
    if (at < edit.bStart) break;
    if (at <= edit.bStart + edit.bCount) return end ? edit.aStart + edit.aCount : edit.aStart;
    shift = edit.aStart + edit.aCount - (edit.bStart + edit.bCount);
  }
  return at + shift;
}
