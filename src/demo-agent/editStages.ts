import { existsSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import { sleep } from './agentKit';
import { consentTo } from './consent';
import type { DemoTurn } from './demoSession';
import { applyEdit, type FileEdit } from './sampleEdits';
import type { FileOutcomeKind, TourReport } from './voice';
import { pathIn, readWorkspaceFile, removeWorkspaceFile, writeWorkspaceFile } from './workspaceFiles';

/** What the stages of one tour share: the texts they read, and how each file ended. */
export interface TourState {
  texts: Map<string, string | null>;
  report: TourReport;
}

export type StageEnd = 'done' | 'cancelled';

/** A pause after each step, so that a person can follow the cards as they change. */
const STEP_MS = 200;

function note(state: TourState, file: string, outcome: FileOutcomeKind): void {
  state.report.files.push({ file, outcome });
}

function textContent(text: string): acp.ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** The first line (1-based) where the texts differ, for the card's location. */
function firstChangedLine(before: string, after: string): number {
  const a = before.split('\n');
  const b = after.split('\n');
  const index = a.findIndex((line, i) => line !== b[i]);
  return (index < 0 ? Math.min(a.length, b.length) : index) + 1;
}

/** The text before the session's first change of `file` is what /reset puts back. */
function rememberOriginal(turn: DemoTurn, file: string, text: string | null): void {
  if (!turn.session.originals.has(file)) turn.session.originals.set(file, text);
}

/**
 * A read card per file that exists (an earlier tour may have deleted one), with its text:
 * through the client's `fs/read_text_file` when it has one.
 */
export async function readFiles(turn: DemoTurn, files: readonly string[], state: TourState): Promise<StageEnd> {
  for (const file of files) {
    if (turn.cancelled) return 'cancelled';
    const path = pathIn(turn.session.cwd, file);
    if (!existsSync(path)) {
      state.texts.set(file, null);
      continue;
    }
    const toolCallId = turn.nextToolCallId('read');
    await turn.send({ sessionUpdate: 'tool_call', toolCallId, title: `Read ${file}`, kind: 'read', status: 'in_progress', locations: [{ path, line: 1 }], rawInput: { path } });
    await sleep(STEP_MS / 2, turn.signal);
    const text = await readWorkspaceFile(turn, file);
    state.texts.set(file, text);
    await turn.send({
      sessionUpdate: 'tool_call_update', toolCallId, status: text === null ? 'failed' : 'completed',
      content: [textContent(text === null ? `${file} does not exist.` : `\`\`\`ts\n${text}\`\`\``)],
    });
  }
  return turn.cancelled ? 'cancelled' : 'done';
}

/**
 * One file changed (or created, when `before` is null) in an edit card with its diff: asked
 * first in "Ask before edits", then written, so the client holds it for review hunk by hunk.
 */
export async function changeFile(turn: DemoTurn, file: string, before: string | null, after: string, state: TourState): Promise<StageEnd> {
  if (before === after) {
    note(state, file, 'unchanged');
    return 'done';
  }
  const path = pathIn(turn.session.cwd, file);
  const toolCallId = turn.nextToolCallId('edit');
  const title = before === null ? `Create ${file}` : `Edit ${file}`;
  const locations = [{ path, line: firstChangedLine(before ?? '', after) }];
  await turn.send({
    sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'pending', locations, rawInput: { path },
    content: [{ type: 'diff', path, oldText: before, newText: after }],
  });
  const decision = await consentTo(turn, { toolCallId, title, kind: 'edit', locations });
  if (decision === 'cancelled') return 'cancelled';
  if (decision === 'rejected') {
    await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [textContent('You rejected this change; the file is as it was.')] });
    note(state, file, 'rejected');
    return 'done';
  }
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  rememberOriginal(turn, file, before);
  await writeWorkspaceFile(turn, file, after);
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  note(state, file, before === null ? 'created' : 'changed');
  await sleep(STEP_MS, turn.signal);
  return turn.cancelled ? 'cancelled' : 'done';
}

/** An existing file changed by `edit`, from the text the read step saw (or reads now). */
export async function editFile(turn: DemoTurn, edit: FileEdit, state: TourState): Promise<StageEnd> {
  const before = state.texts.has(edit.file) ? state.texts.get(edit.file) ?? null : await readWorkspaceFile(turn, edit.file);
  if (before === null) {
    note(state, edit.file, 'missing');
    return 'done';
  }
  return changeFile(turn, edit.file, before, applyEdit(before, edit), state);
}

/**
 * A proposed deletion: a delete card whose diff empties the file, asked first like an edit.
 * Once allowed the agent removes the file itself (ACP has no delete request); the client saw
 * the file in the card before and compares it after, which is what makes the deletion undoable.
 */
export async function removeFile(turn: DemoTurn, file: string, text: string | null, state: TourState): Promise<StageEnd> {
  if (text === null) {
    note(state, file, 'missing');
    return 'done';
  }
  const path = pathIn(turn.session.cwd, file);
  const toolCallId = turn.nextToolCallId('delete');
  const title = `Delete ${file}`;
  const locations = [{ path }];
  await turn.send({
    sessionUpdate: 'tool_call', toolCallId, title, kind: 'delete', status: 'pending', locations, rawInput: { path },
    content: [{ type: 'diff', path, oldText: text, newText: '' }],
  });
  const decision = await consentTo(turn, { toolCallId, title, kind: 'delete', locations });
  if (decision === 'cancelled') return 'cancelled';
  if (decision === 'rejected') {
    await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [textContent(`You kept ${file}.`)] });
    note(state, file, 'rejected');
    return 'done';
  }
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  rememberOriginal(turn, file, text);
  removeWorkspaceFile(turn.session.cwd, file);
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  note(state, file, 'deleted');
  await sleep(STEP_MS, turn.signal);
  return turn.cancelled ? 'cancelled' : 'done';
}

export interface ResetResult {
  restored: string[];
  rejected: boolean;
}

/** /reset: one card that puts back every file this session changed (removing the ones it created). */
export async function resetFiles(turn: DemoTurn): Promise<ResetResult | 'cancelled'> {
  const { cwd, originals } = turn.session;
  const pending: { file: string; current: string | null; original: string | null }[] = [];
  for (const [file, original] of originals) {
    const current = await readWorkspaceFile(turn, file);
    if (current !== original) pending.push({ file, current, original });
  }
  if (pending.length === 0) return { restored: [], rejected: false };
  const files = pending.map((entry) => entry.file);
  const toolCallId = turn.nextToolCallId('reset');
  const title = `Put back ${files.join(', ')}`;
  const locations = files.map((file) => ({ path: pathIn(cwd, file) }));
  await turn.send({
    sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'pending', locations,
    content: pending.map((entry) => ({ type: 'diff', path: pathIn(cwd, entry.file), oldText: entry.current, newText: entry.original ?? '' })),
  });
  const decision = await consentTo(turn, { toolCallId, title, kind: 'edit', locations });
  if (decision === 'cancelled') return 'cancelled';
  if (decision === 'rejected') {
    await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return { restored: [], rejected: true };
  }
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  for (const entry of pending) {
    if (entry.original === null) removeWorkspaceFile(cwd, entry.file);
    else await writeWorkspaceFile(turn, entry.file, entry.original);
  }
  originals.clear();
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  return { restored: files, rejected: false };
}
