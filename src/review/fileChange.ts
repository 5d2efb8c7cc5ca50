/**
 * One file under review: its base (what the user has accepted so far), its current text and the
 * hunks between them. Keep and undo edit the hunk list in place instead of diffing again, so the
 * other hunks stay exactly as the user saw them (same ids, same lines): any mix of keeps and
 * undos equals applying exactly the kept hunks to the base. Only a new current text from outside
 * (agent record, user edit, redo) is diffed again.
 */
import { describeBytes } from './contentBytes';
import { diffLineArrays, type LineEdit } from './lineDiff';
import { LineText, stripEol } from './lineText';
import type { ChangeOrigin, ContentEncoding, FileChangeView, HunkView } from './types';

export interface Hunk {
  readonly id: string;
  baseStart: number;
  readonly baseCount: number;
  currentStart: number;
  readonly currentCount: number;
}

/** What an undo took out, enough to put it back later. */
export interface UndoneHunk {
  id: string;
  /** Line where the restored base lines sit in the text right after the undo. */
  at: number;
  /** The base lines the undo restored (exact text) and how many. */
  restored: string;
  restoredCount: number;
  /** The agent's lines the undo removed (exact text). */
  removed: string;
}

/** An id a recomputed hunk with exactly this content may take back (redo). */
export interface HunkHint {
  id: string;
  restored: string;
  removed: string;
}

export class FileChange {
  base: LineText;
  current: LineText;
  hunks: Hunk[] = [];
  readonly toolCallIds: string[] = [];

  /** 'bytes': base and current are latin1 bytes, each one line, so there is at most one hunk: the whole file. */
  constructor(readonly path: string, base: string | null, public origin: ChangeOrigin, readonly encoding: ContentEncoding = 'text') {
    this.base = this.lineText(base);
    this.current = this.base;
  }

  /** No difference left: the ledger drops the file. */
  get resolved(): boolean {
    return this.base.text === this.current.text;
  }

  hunk(id: string): Hunk | undefined {
    return this.hunks.find((hunk) => hunk.id === id);
  }

  addToolCall(toolCallId: string | undefined): void {
    if (toolCallId !== undefined && !this.toolCallIds.includes(toolCallId)) this.toolCallIds.push(toolCallId);
  }

  /**
   * A new current text (agent record, user edit, redo). Only the difference between the old and
   * the new current text is diffed, and composed with the pending hunks: a hunk no edit touches
   * stays exactly as it was (id, lines), it only moves. Where an edit overlaps or touches hunks,
   * that stretch is diffed again against the base; a resulting hunk keeps an old id only if it
   * has the same base lines and new lines, or takes a `hints` id with the same content (redo).
   */
  setCurrent(text: string | null, newId: () => string, hints: readonly HunkHint[] = []): void {
    if (text === this.current.text) return;
    const previous = this.current;
    const next = text === this.base.text ? this.base : this.lineText(text);
    const edits = diffLineArrays(previous.lines(), next.lines());
    const oldIds = new Map<string, string>();
    for (const hunk of this.hunks) oldIds.set(this.positionKey(hunk.baseStart, hunk.baseCount, previous.slice(hunk.currentStart, hunk.currentStart + hunk.currentCount)), hunk.id);
    const used = new Set<string>();
    const idFor = (baseStart: number, baseCount: number, currentStart: number, currentCount: number): string => {
      const added = next.slice(currentStart, currentStart + currentCount);
      let id = oldIds.get(this.positionKey(baseStart, baseCount, added));
      if (id === undefined || used.has(id)) {
        const restored = this.base.slice(baseStart, baseStart + baseCount);
        id = hints.find((hint) => !used.has(hint.id) && hint.removed === added && hint.restored === restored)?.id;
      }
      if (id === undefined || used.has(id)) id = newId();
      used.add(id);
      return id;
    };
    const hunks: Hunk[] = [];
    for (const cluster of clusters(this.hunks, edits)) {
      const { baseLo, baseHi, nextLo, nextHi } = cluster;
      const only = cluster.hunks[0];
      if (cluster.edits === 0 && cluster.hunks.length === 1 && only) {
        hunks.push({ ...only, currentStart: nextLo });
        used.add(only.id);
        continue;
      }
      // Without hunks, the old current lines here are the base lines, so one edit is already a hunk.
      const local = cluster.hunks.length === 0 && cluster.edits === 1
        ? [{ aStart: 0, aCount: baseHi - baseLo, bStart: 0, bCount: nextHi - nextLo }]
        : diffLineArrays(this.base.lines(baseLo, baseHi), next.lines(nextLo, nextHi));
      for (const edit of local) {
        const baseStart = baseLo + edit.aStart;
        const currentStart = nextLo + edit.bStart;
        hunks.push({ id: idFor(baseStart, edit.aCount, currentStart, edit.bCount), baseStart, baseCount: edit.aCount, currentStart, currentCount: edit.bCount });
      }
    }
    this.current = next;
    this.hunks = hunks;
  }

  /** Takes stored hunks as they are if they fit the texts; false (and nothing changed) when they do not. */
  restore(text: string | null, hunks: readonly Hunk[]): boolean {
    const { current, hunks: pending } = this;
    this.current = text === this.base.text ? this.base : this.lineText(text);
    this.hunks = hunks.map((hunk) => ({ ...hunk }));
    if (this.verify() && new Set(hunks.map((hunk) => hunk.id)).size === hunks.length) return true;
    this.current = current;
    this.hunks = pending;
    return false;
  }

  /** Keep: the base absorbs the hunk; later hunks move in base coordinates only. */
  keep(hunk: Hunk): void {
    const { base, current } = this;
    const text = base.slice(0, hunk.baseStart) + current.slice(hunk.currentStart, hunk.currentStart + hunk.currentCount)
      + base.slice(hunk.baseStart + hunk.baseCount, base.lineCount);
    for (const later of this.remove(hunk)) later.baseStart += hunk.currentCount - hunk.baseCount;
    // With no hunk left the lines are identical; taking `current` itself also carries null (deleted).
    this.base = this.hunks.length === 0 ? current : this.lineText(text);
  }

  /** Undo: the current text gets the hunk's base lines back; later hunks move in current coordinates. */
  undo(hunk: Hunk): UndoneHunk {
    const { base, current } = this;
    const restored = base.slice(hunk.baseStart, hunk.baseStart + hunk.baseCount);
    const removed = current.slice(hunk.currentStart, hunk.currentStart + hunk.currentCount);
    const text = current.slice(0, hunk.currentStart) + restored + current.slice(hunk.currentStart + hunk.currentCount, current.lineCount);
    for (const later of this.remove(hunk)) later.currentStart += hunk.baseCount - hunk.currentCount;
    this.current = this.hunks.length === 0 ? base : this.lineText(text);
    return { id: hunk.id, at: hunk.currentStart, restored, restoredCount: hunk.baseCount, removed };
  }

  keepAll(): void {
    this.hunks = [];
    this.base = this.current;
  }

  /** Undoes every hunk at once; each one's base lines then sit at its base position. */
  undoAll(): UndoneHunk[] {
    const undone = this.hunks.map((hunk): UndoneHunk => ({
      id: hunk.id,
      at: hunk.baseStart,
      restored: this.base.slice(hunk.baseStart, hunk.baseStart + hunk.baseCount),
      restoredCount: hunk.baseCount,
      removed: this.current.slice(hunk.currentStart, hunk.currentStart + hunk.currentCount),
    }));
    this.hunks = [];
    this.current = this.base;
    return undone;
  }

  /**
   * True when the hunks really describe base -> current: in order, in bounds, each a change, and
   * the lines between them equal on both sides. Used on snapshots read back from storage.
   */
  verify(): boolean {
    let baseAt = 0;
    let currentAt = 0;
    for (const hunk of this.hunks) {
      const { baseStart, baseCount, currentStart, currentCount } = hunk;
      if (![baseStart, baseCount, currentStart, currentCount].every((n) => Number.isInteger(n) && n >= 0)) return false;
      if (baseStart < baseAt || currentStart < currentAt || baseStart - baseAt !== currentStart - currentAt) return false;
      if (baseCount + currentCount === 0) return false;
      if (baseStart + baseCount > this.base.lineCount || currentStart + currentCount > this.current.lineCount) return false;
      if (this.base.slice(baseAt, baseStart) !== this.current.slice(currentAt, currentStart)) return false;
      baseAt = baseStart + baseCount;
      currentAt = currentStart + currentCount;
    }
    return this.base.lineCount - baseAt === this.current.lineCount - currentAt
      && this.base.slice(baseAt, this.base.lineCount) === this.current.slice(currentAt, this.current.lineCount);
  }

  view(): FileChangeView {
    let added = 0;
    let removed = 0;
    const hunks = this.hunks.map((hunk): HunkView => {
      added += hunk.currentCount;
      removed += hunk.baseCount;
      return {
        id: hunk.id,
        baseStart: hunk.baseStart,
        baseLineCount: hunk.baseCount,
        currentStart: hunk.currentStart,
        currentLineCount: hunk.currentCount,
        removed: this.shown(this.base, hunk.baseStart, hunk.baseStart + hunk.baseCount),
        added: this.shown(this.current, hunk.currentStart, hunk.currentStart + hunk.currentCount),
      };
    });
    const status = this.base.text === null ? 'created' : this.current.text === null ? 'deleted' : 'modified';
    const view: FileChangeView = { path: this.path, origin: this.origin, status, added, removed, hunks, toolCallIds: [...this.toolCallIds] };
    if (this.encoding === 'bytes') view.encoding = 'bytes';
    return view;
  }

  private lineText(text: string | null): LineText {
    return new LineText(text, this.encoding === 'bytes');
  }

  /** Display lines: the text's own, or for bytes a description of the whole content. */
  private shown(text: LineText, from: number, to: number): string[] {
    if (this.encoding === 'text') return text.lines(from, to).map(stripEol);
    return from < to && text.text !== null ? [describeBytes(text.text)] : [];
  }

  private positionKey(baseStart: number, baseCount: number, added: string): string {
    return `${baseStart}:${baseCount}:${added}`;
  }

  /** Drops the hunk and returns the hunks after it, whose positions the caller moves. */
  private remove(hunk: Hunk): Hunk[] {
    const index = this.hunks.indexOf(hunk);
    const later = this.hunks.slice(index + 1);
    this.hunks = [...this.hunks.slice(0, index), ...later];
    return later;
  }
}

interface Cluster {
  hunks: Hunk[];
  edits: number;
  baseLo: number;
  baseHi: number;
  nextLo: number;
  nextHi: number;
}

/**
 * Groups pending hunks and new edits (both in old-current line coordinates) that overlap or
 * touch, and gives each group's range in base and in the new text. Between two groups there is
 * at least one line that neither the agent nor the new edit changed.
 */
function clusters(hunks: readonly Hunk[], edits: readonly LineEdit[]): Cluster[] {
  type Item = { start: number; end: number; hunk: Hunk | null; shift: number };
  const items: Item[] = [
    ...hunks.map((hunk) => ({ start: hunk.currentStart, end: hunk.currentStart + hunk.currentCount, hunk, shift: hunk.baseCount - hunk.currentCount })),
    ...edits.map((edit) => ({ start: edit.aStart, end: edit.aStart + edit.aCount, hunk: null, shift: edit.bCount - edit.aCount })),
  ].sort((x, y) => x.start - y.start);
  const out: Cluster[] = [];
  // Line shifts old current -> base and old current -> new text from everything before.
  let toBase = 0;
  let toNext = 0;
  let open: (Cluster & { lo: number; hi: number }) | null = null;
  const close = () => {
    if (!open) return;
    open.baseHi = open.hi + toBase;
    open.nextHi = open.hi + toNext;
    out.push(open);
    open = null;
  };
  for (const item of items) {
    if (open && item.start > open.hi) close();
    if (!open) open = { hunks: [], edits: 0, lo: item.start, hi: item.end, baseLo: item.start + toBase, baseHi: 0, nextLo: item.start + toNext, nextHi: 0 };
    open.hi = Math.max(open.hi, item.end);
    if (item.hunk) {
      open.hunks.push(item.hunk);
      toBase += item.shift;
    } else {
      open.edits++;
      toNext += item.shift;
    }
  }
  close();
  return out;
}
