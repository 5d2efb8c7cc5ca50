/**
 * The change ledger behind hunk-level review: per file the base the user has accepted, the
 * current text and the hunks between them. Pure TypeScript; the VS Code adapter feeds it agent
 * writes and user edits, and writes back the texts that keep/undo/redo return.
 *
 * Hunks are maximal runs of changed lines with no unchanged line between them, so two changes
 * one unchanged line apart are two hunks, and adjacent changed lines are always one hunk.
 * Hunk ids ("h<n>") come from a counter kept in the ledger; a hunk keeps its id until it is kept
 * or undone, also when other hunks change or the file is diffed again around it.
 * Paths are opaque keys: the adapter chooses them (e.g. normalized fsPaths) and uses them consistently.
 */
import { Emitter } from '../util/emitter';
import type { Disposable } from '../util/disposable';
import { textToLatin1 } from './contentBytes';
import { FileChange, type Hunk } from './fileChange';
import { reapply, type RedoFile } from './redo';
import { redoFacts, redoFile, RedoStack } from './redoStack';
import { assertSnapshot, SNAPSHOT_VERSION, type LedgerSnapshot } from './snapshot';
import { StaleHunkError, type ChangeOrigin, type ContentEncoding, type FileChangeView, type FileWrite, type RecordedChange } from './types';
import type { FileHandEdits } from './handEdits';
import { UndoNotes, type UndoKind } from './undoNotes';

export type { ChangeOrigin, ContentEncoding, FileChangeView, FileWrite, HunkView, RecordedChange } from './types';
export { StaleHunkError } from './types';
export type { LedgerSnapshot } from './snapshot';
export type { FileHandEdits } from './handEdits';

export class ChangeLedger {
  private readonly entries = new Map<string, FileChange>();
  private redoStack = new RedoStack();
  private notes = new UndoNotes();
  private nextId = 1;
  private readonly changed = new Emitter<void>();

  /**
   * An agent change: `before` = text before (null = the file did not exist), `after` = text after
   * (null = deleted). The first record for a path fixes its base; later records only move the
   * current text (their `before` is ignored). The origin shown is the latest record's.
   * Content held as bytes stays bytes: a text file that becomes bytes (or a bytes record of a
   * text entry) turns the entry into a whole-file one, its base kept as its UTF-8 bytes.
   */
  record(path: string, change: RecordedChange): void {
    const encoding = change.encoding ?? 'text';
    let entry = this.entries.get(path);
    if (!entry) {
      if (change.before === change.after) return;
      entry = new FileChange(path, change.before, change.origin, encoding);
      this.entries.set(path, entry);
    } else if (entry.encoding !== encoding && encoding === 'bytes') {
      entry = this.asBytes(entry);
    }
    const after = entry.encoding === encoding ? change.after : textToLatin1(change.after);
    if (after !== entry.current.text) this.notes.rebased(path, after);
    entry.origin = change.origin;
    entry.addToolCall(change.toolCallId);
    entry.setCurrent(after, this.newId);
    this.settle(entry);
    this.changed.fire();
  }

  /** Something other than the agent (a restore) changed the current text while hunks are pending: base unchanged. Unknown paths are ignored. */
  updateCurrent(path: string, text: string | null): void {
    const entry = this.entries.get(path);
    if (!entry || entry.current.text === text) return;
    this.notes.rebased(path, text);
    this.setCurrent(entry, text);
  }

  /**
   * The user edited the current text by hand: as updateCurrent, and where the edit touches the
   * agent's pending lines, the agent's next prompt can say so (takeHandEdits).
   */
  editByHand(path: string, text: string | null): void {
    const entry = this.entries.get(path);
    if (!entry || entry.current.text === text) return;
    if (entry.encoding === 'text' && entry.current.text !== null) {
      this.notes.editedByHand(path, entry.current.text, text, entry.hunks.map((hunk) => [hunk.currentStart, hunk.currentCount]));
    }
    this.setCurrent(entry, text);
  }

  /** Pending files, in the order they were first recorded. */
  files(): FileChangeView[] {
    return [...this.entries.values()].map((entry) => entry.view());
  }

  file(path: string): FileChangeView | undefined {
    return this.entries.get(path)?.view();
  }

  /** undefined = the path has no pending change; null = the file did not exist before. */
  baseText(path: string): string | null | undefined {
    return this.entries.get(path)?.base.text;
  }

  /** undefined = the path has no pending change; null = the agent deleted it. */
  currentText(path: string): string | null | undefined {
    return this.entries.get(path)?.current.text;
  }

  /** How the pending change holds the file's content (undefined = no pending change). */
  encodingOf(path: string): ContentEncoding | undefined {
    return this.entries.get(path)?.encoding;
  }

  /**
   * How the agent changed the file: the pending change's origin, or, for a file an undo just
   * resolved, the origin that undo remembers (so the adapter knows how to write the undo back).
   */
  originOf(path: string): ChangeOrigin | undefined {
    const entry = this.entries.get(path);
    if (entry) return entry.origin;
    return this.redoStack.latestFile(path)?.origin;
  }

  /** Keep = the base absorbs that hunk; nothing to write. Throws StaleHunkError for an unknown hunk. */
  keepHunk(path: string, hunkId: string): void {
    const { entry, hunk } = this.pendingHunk(path, hunkId);
    entry.keep(hunk);
    this.notes.kept(path, 1, entry.hunks.length);
    this.settle(entry);
    this.changed.fire();
  }

  /** Undo = the current text loses that hunk. Returns the exact text to write (null = delete the file). */
  undoHunk(path: string, hunkId: string): FileWrite {
    const { entry, hunk } = this.pendingHunk(path, hunkId);
    const facts = redoFacts(entry);
    const replaces = entry.current.text;
    const undone = entry.undo(hunk);
    const after = entry.current.text;
    this.notes.undoneHunk(path, undone.at, hunk.currentCount, undone.restored, after);
    this.redoStack.push([redoFile(facts, entry, [undone])]);
    this.notes.undone(path, 1, entry.hunks.length, undoKind(entry, facts.wasDeleted));
    this.settle(entry);
    this.changed.fire();
    return fileWrite(path, after, entry.encoding, replaces);
  }

  keepFile(path: string): void {
    const entry = this.pending(path);
    this.notes.kept(path, Math.max(1, entry.hunks.length), 0);
    entry.keepAll();
    this.settle(entry);
    this.changed.fire();
  }

  undoFile(path: string): FileWrite {
    const [write] = this.undoEntries([this.pending(path)]);
    if (!write) throw new StaleHunkError(path, null);
    return write;
  }

  keepAll(): void {
    if (this.entries.size === 0) return;
    for (const entry of this.entries.values()) {
      this.notes.kept(entry.path, Math.max(1, entry.hunks.length), 0);
      entry.keepAll();
    }
    this.entries.clear();
    this.changed.fire();
  }

  undoAll(): FileWrite[] {
    return this.undoEntries([...this.entries.values()]);
  }

  /**
   * Brings back the most recently undone hunk, file or all (a stack). Returns what to write: null
   * when there is nothing to redo; a file whose undone lines were edited since is left out.
   */
  redoLastUndo(): FileWrite[] | null {
    const undo = this.redoStack.pop();
    if (!undo) return null;
    const writes: FileWrite[] = [];
    for (const file of undo.files) {
      const write = this.bringBack(file, undo.reported);
      if (write) writes.push(write);
    }
    this.changed.fire();
    return writes;
  }

  /**
   * The adapter could not write these files' latest undo (a failed disk write): they still hold
   * the agent's change, so it is pending again exactly as before the undo, and the undo is
   * neither redoable nor news for the agent.
   */
  cancelUndo(paths: readonly string[]): void {
    for (const path of paths) {
      const taken = this.redoStack.takeFile(path);
      if (taken) this.bringBack(taken.file, taken.reported);
    }
    this.changed.fire();
  }

  canRedo(): boolean {
    return !this.redoStack.isEmpty;
  }

  /** Where the user edited the agent's pending lines by hand since the last call (see handEdits.ts). Clears. */
  takeHandEdits(include?: (path: string) => boolean): FileHandEdits[] {
    const files = this.notes.takeHandEdits(include);
    if (files.length > 0) this.changed.fire();
    return files;
  }

  /** Lines for the agent about what the user undid since the last call, e.g. "notes.md: undid 2 of 3 changes". Clears. */
  takeUndoSummary(include?: (path: string) => boolean): string[] {
    const lines = this.notes.take(include);
    this.redoStack.markReported();
    // The notes are part of the snapshot: let the adapter persist that they were delivered.
    if (lines.length > 0) this.changed.fire();
    return lines;
  }

  onDidChange(listener: () => void): Disposable {
    return this.changed.event(listener);
  }

  toJSON(): LedgerSnapshot {
    return {
      version: SNAPSHOT_VERSION,
      nextId: this.nextId,
      files: [...this.entries.values()].map((entry) => ({
        path: entry.path,
        origin: entry.origin,
        base: entry.base.text,
        current: entry.current.text,
        toolCallIds: [...entry.toolCallIds],
        hunks: entry.hunks.map((hunk) => ({ ...hunk })),
        ...(entry.encoding === 'bytes' ? { encoding: 'bytes' as const } : {}),
      })),
      redo: this.redoStack.toJSON(),
      notes: this.notes.toJSON(),
    };
  }

  /** Throws when `snapshot` is not one this version wrote. Hunks that do not fit their texts are recomputed. */
  static fromJSON(snapshot: LedgerSnapshot): ChangeLedger {
    assertSnapshot(snapshot);
    const ledger = new ChangeLedger();
    ledger.nextId = snapshot.nextId;
    for (const file of snapshot.files) {
      const entry = new FileChange(file.path, file.base, file.origin, file.encoding ?? 'text');
      for (const toolCallId of file.toolCallIds) entry.addToolCall(toolCallId);
      if (!entry.restore(file.current, file.hunks)) entry.setCurrent(file.current, ledger.newId);
      if (!entry.resolved) ledger.entries.set(file.path, entry);
    }
    ledger.redoStack = new RedoStack(snapshot.redo);
    ledger.notes = new UndoNotes(snapshot.notes);
    // New ids must never repeat a stored one, whatever nextId says.
    const stored = [...ledger.entries.values()].flatMap((entry) => entry.hunks.map((hunk) => hunk.id))
      .concat(ledger.redoStack.hunkIds());
    for (const id of stored) ledger.nextId = Math.max(ledger.nextId, (Number(/^h(\d+)$/.exec(id)?.[1]) || 0) + 1);
    return ledger;
  }

  private readonly newId = (): string => `h${this.nextId++}`;

  private pending(path: string): FileChange {
    const entry = this.entries.get(path);
    if (!entry) throw new StaleHunkError(path, null);
    return entry;
  }

  private pendingHunk(path: string, hunkId: string): { entry: FileChange; hunk: Hunk } {
    const entry = this.pending(path);
    const hunk = entry.hunk(hunkId);
    if (!hunk) throw new StaleHunkError(path, hunkId);
    return { entry, hunk };
  }

  private undoEntries(entries: FileChange[]): FileWrite[] {
    if (entries.length === 0) return [];
    const files: RedoFile[] = [];
    const writes: FileWrite[] = [];
    for (const entry of entries) {
      const facts = redoFacts(entry);
      const replaces = entry.current.text;
      const hunks = entry.undoAll();
      files.push(redoFile(facts, entry, hunks));
      writes.push(fileWrite(entry.path, entry.current.text, entry.encoding, replaces));
      this.notes.undone(entry.path, Math.max(1, hunks.length), 0, undoKind(entry, facts.wasDeleted));
      this.notes.undoneFile(entry.path);
      this.settle(entry);
    }
    this.redoStack.push(files);
    this.changed.fire();
    return writes;
  }

  /** Puts an undone file's hunks back (redo, or an undo that could not be written); what to write, if anything fits. */
  private bringBack(file: RedoFile, reported: boolean): FileWrite | undefined {
    const existing = this.entries.get(file.path);
    const encoding = file.encoding ?? 'text';
    if (existing && existing.encoding !== encoding) return undefined;
    // A file that is no longer pending is assumed to still hold what the undo left.
    const now = existing ? existing.current.text : file.after;
    const text = reapply(now, file);
    if (text === undefined) return undefined;
    const entry = existing ?? this.adopt(file, now);
    for (const toolCallId of file.toolCallIds) entry.addToolCall(toolCallId);
    // Nothing moved since the undo: the hunks come back exactly as they were, not re-diffed.
    const exact = now === file.after && entry.base.text === (file.baseIsAfter ? file.after : file.base) && entry.restore(text, file.pending);
    if (!exact) entry.setCurrent(text, this.newId, file.hunks);
    this.notes.redone(file.path, Math.max(1, file.hunks.length), entry.hunks.length, reported);
    this.notes.currentChanged(file.path, text);
    this.settle(entry);
    return fileWrite(file.path, text, encoding, now);
  }

  /** A redo for a file that is no longer pending: its text of now becomes the base again. */
  private adopt(file: RedoFile, now: string | null): FileChange {
    const entry = new FileChange(file.path, now, file.origin, file.encoding ?? 'text');
    this.entries.set(file.path, entry);
    return entry;
  }

  /** The same pending change with its texts as their UTF-8 bytes: one whole-file hunk from now on. */
  private asBytes(entry: FileChange): FileChange {
    const bytes = new FileChange(entry.path, textToLatin1(entry.base.text), entry.origin, 'bytes');
    for (const toolCallId of entry.toolCallIds) bytes.addToolCall(toolCallId);
    bytes.setCurrent(textToLatin1(entry.current.text), this.newId);
    this.entries.set(entry.path, bytes);
    return bytes;
  }

  private setCurrent(entry: FileChange, text: string | null): void {
    entry.setCurrent(text, this.newId);
    this.settle(entry);
    this.changed.fire();
  }

  /** A file with nothing left to review drops out. */
  private settle(entry: FileChange): void {
    if (entry.resolved) this.entries.delete(entry.path);
  }
}

/** Bytes writes say so, and what they expect to replace; text writes stay `{ path, text }`. */
function fileWrite(path: string, text: string | null, encoding: ContentEncoding, replaces: string | null): FileWrite {
  return encoding === 'bytes' ? { path, text, encoding, replaces } : { path, text };
}

function undoKind(entry: FileChange, wasDeleted: boolean): UndoKind {
  if (entry.base.text === null && entry.current.text === null) return 'creation';
  if (wasDeleted && entry.current.text !== null) return 'deletion';
  return 'hunks';
}
