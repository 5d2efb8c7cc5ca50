/**
 * Random undo/keep mixes on the change ledger, byte-checked: seeded texts (BOM, CRLF/LF/CR
 * mixes, no final newline, non-ASCII, repeated lines) and content held as bytes (UTF-16,
 * Latin-1, binary), random agent writes, then random keeps, undos, undo-then-redo, failed undo
 * writes, whole-file and all-file decisions and JSON round trips. What the disk must hold at the
 * end is computed here, independently of the ledger (own line splitter, own hunk application),
 * and compared as bytes. Pure: no I/O, bounded by the case count (and `shouldStop`).
 */
import { ChangeLedger, type FileWrite, type HunkView, type LedgerSnapshot } from '../../src/review/changeLedger';
import { bytesToLatin1 } from '../../src/review/contentBytes';

/** mulberry32: small, fast, and the same sequence on every machine. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}

const WORDS = ['alpha', 'beta', 'gamma', 'café', 'naïve', '日本語', '🙂', '}', '{', '  return x;', '', 'ü', '\t', '#'];
const EOLS = ['\n', '\r\n', '\r'];

/** Independent of the implementation: a regex split keeping each line's EOL (CRLF, LF, lone CR). */
export function split(text: string | null): string[] {
  return text === null ? [] : (text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? []);
}

function randomLine(random: Random, eol: string): string {
  const words = Array.from({ length: random.int(4) }, () => random.pick(WORDS));
  return `${words.join(' ')}${eol}`;
}

export function randomText(random: Random): string {
  const big = random.chance(0.08);
  const count = big ? 300 + random.int(900) : random.int(30);
  const mainEol = random.pick(EOLS.slice(0, 2));
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const eol = random.chance(0.1) ? random.pick(EOLS) : mainEol;
    // Big files get numbered lines so that, like real code, most lines are unique.
    lines.push(big && random.chance(0.8) ? `${i}: ${randomLine(random, eol)}` : randomLine(random, eol));
  }
  let text = lines.join('');
  if (random.chance(0.3)) text = text.replace(/(\r\n|\r|\n)$/, '');
  if (random.chance(0.15)) text = `\uFEFF${text}`;
  return text;
}

/** An agent's edit: a few line replacements, insertions, deletions, EOL changes, final-newline toggles. */
export function randomEdit(random: Random, text: string): string {
  const lines = split(text);
  const eol = () => (random.chance(0.85) ? (lines[0]?.match(/\r\n|\r|\n$/)?.[0] ?? '\n') : random.pick(EOLS));
  const operations = 1 + random.int(6);
  for (let k = 0; k < operations; k++) {
    const at = random.int(lines.length + 1);
    switch (random.int(6)) {
      case 0:
      case 1:
        if (at < lines.length) lines[at] = randomLine(random, eol());
        break;
      case 2:
        lines.splice(at, 0, ...Array.from({ length: 1 + random.int(3) }, () => randomLine(random, eol())));
        break;
      case 3:
        lines.splice(at, 1 + random.int(3));
        break;
      case 4:
        if (at < lines.length) lines[at] = (lines[at] ?? '').replace(/(\r\n|\r|\n)?$/, random.pick(EOLS));
        break;
      default: {
        const last = lines.length - 1;
        if (last >= 0) lines[last] = /(\r\n|\r|\n)$/.test(lines[last] ?? '') ? (lines[last] ?? '').replace(/(\r\n|\r|\n)$/, '') : `${lines[last]}${eol()}`;
      }
    }
  }
  return lines.join('');
}

/** Base and agent text of one case; sometimes a created or a deleted file. */
export function randomChange(random: Random): { before: string | null; after: string | null } {
  if (random.chance(0.07)) return { before: null, after: randomText(random) };
  const before = randomText(random);
  if (random.chance(0.07)) return { before, after: null };
  return { before, after: randomEdit(random, before) };
}

/** Base with exactly the kept hunks applied, computed from the original hunk positions. */
export function applyKept(before: string | null, after: string | null, hunks: readonly HunkView[], kept: ReadonlySet<string>): string | null {
  if (hunks.every((hunk) => kept.has(hunk.id))) return after;
  if (hunks.every((hunk) => !kept.has(hunk.id))) return before;
  const baseLines = split(before);
  const currentLines = split(after);
  const out: string[] = [];
  let at = 0;
  for (const hunk of hunks) {
    out.push(...baseLines.slice(at, hunk.baseStart));
    out.push(...(kept.has(hunk.id)
      ? currentLines.slice(hunk.currentStart, hunk.currentStart + hunk.currentLineCount)
      : baseLines.slice(hunk.baseStart, hunk.baseStart + hunk.baseLineCount)));
    at = hunk.baseStart + hunk.baseLineCount;
  }
  return out.concat(baseLines.slice(at)).join('');
}

/** Bytes that are no UTF-8 text: UTF-16 with a BOM, Latin-1, or binary with NULs and 0x0A/0x0D. */
function randomBytes(random: Random): string {
  const text = randomText(random).replace(/^\uFEFF/, '');
  switch (random.int(3)) {
    case 0:
      return bytesToLatin1(Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]));
    case 1:
      return bytesToLatin1(Buffer.from(`${text}\xe9`, 'latin1'));
    default:
      return bytesToLatin1(Uint8Array.from({ length: random.int(300) }, () => random.pick([0, 0x0a, 0x0d, 0xff, random.int(256)])));
  }
}

interface CaseFile {
  path: string;
  bytes: boolean;
  before: string | null;
  after: string | null;
}

/** One to three files, each with one or more agent records; about one in six held as bytes. */
function randomFiles(random: Random): CaseFile[] {
  return Array.from({ length: 1 + random.int(3) }, (_, index): CaseFile => {
    const path = `dir/f${index}.txt`;
    if (random.chance(0.16)) {
      const before = random.chance(0.1) ? null : randomBytes(random);
      return { path, bytes: true, before, after: random.chance(0.1) ? null : randomBytes(random) };
    }
    return { path, bytes: false, ...randomChange(random) };
  });
}

/** The file's bytes as the adapter writes them: UTF-8 for text, one byte a character for bytes. */
function encode(text: string | null, bytes: boolean): Buffer | null {
  return text === null ? null : Buffer.from(text, bytes ? 'latin1' : 'utf8');
}

const roundTrip = (ledger: ChangeLedger) => ChangeLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON())) as LedgerSnapshot);

/** A review of `files` to its end, with the writes an adapter would make applied to `disk`. */
class ReviewCase {
  ledger = new ChangeLedger();
  readonly disk = new Map<string, Buffer | null>();
  readonly kept = new Set<string>();
  /** Files kept with no hunk to keep: a new empty file has none. */
  readonly keptFiles = new Set<string>();
  readonly problems: string[] = [];
  private readonly hunks = new Map<string, HunkView[]>();

  constructor(private readonly random: Random, private readonly files: readonly CaseFile[]) {
    for (const file of files) this.recordAgent(file);
  }

  /** Keeps and undos until nothing is pending (bounded: every step resolves a hunk or more). */
  review(): void {
    for (let step = 0; step < 200 && this.ledger.files().length > 0; step++) {
      if (this.random.chance(0.05)) this.ledger = roundTrip(this.ledger);
      this.step();
    }
  }

  /** What the disk must hold now that every hunk was kept or undone. */
  expected(file: CaseFile): Buffer | null {
    const hunks = this.hunks.get(file.path) ?? [];
    if (hunks.length === 0) return encode(this.keptFiles.has(file.path) ? file.after : file.before, file.bytes);
    if (file.bytes) return encode(hunks.some((hunk) => this.kept.has(hunk.id)) ? file.after : file.before, true);
    return encode(applyKept(file.before, file.after, hunks, this.kept), false);
  }

  private recordAgent(file: CaseFile): void {
    const encoding = file.bytes ? 'bytes' : 'text';
    // Sometimes the agent writes the file twice: the second text is the one under review.
    if (!file.bytes && file.after !== null && this.random.chance(0.3)) {
      this.ledger.record(file.path, { before: file.before, after: randomEdit(this.random, file.after), origin: 'disk', encoding });
    }
    this.ledger.record(file.path, { before: file.before, after: file.after, origin: this.random.chance(0.5) ? 'disk' : 'editor', encoding });
    this.disk.set(file.path, encode(file.after, file.bytes));
    this.hunks.set(file.path, this.ledger.file(file.path)?.hunks ?? []);
  }

  private step(): void {
    const views = this.ledger.files();
    const view = this.random.pick(views);
    const hunk = view.hunks.length > 0 ? this.random.pick(view.hunks) : undefined;
    const choice = this.random.int(20);
    if (!hunk) {
      this.decideWholeFile(view.path, choice < 10);
    } else if (choice < 8) {
      this.ledger.keepHunk(view.path, hunk.id);
      this.kept.add(hunk.id);
    } else if (choice < 15) {
      this.undo(() => [this.ledger.undoHunk(view.path, hunk.id)]);
    } else if (choice < 17) {
      this.undoThenRedo(view.path, hunk.id);
    } else if (choice === 17) {
      for (const pending of view.hunks) this.kept.add(pending.id);
      this.ledger.keepFile(view.path);
    } else {
      this.undo(() => (choice === 18 ? [this.ledger.undoFile(view.path)] : this.ledger.undoAll()));
    }
  }

  /** A file with no hunk (a new empty file) is kept or undone as a whole. */
  private decideWholeFile(path: string, keep: boolean): void {
    if (!keep) return this.undo(() => [this.ledger.undoFile(path)]);
    this.keptFiles.add(path);
    this.ledger.keepFile(path);
  }

  /** An undo whose writes sometimes fail (unless `mayFail` is false): those files keep their bytes and go back to pending. */
  private undo(run: () => FileWrite[], mayFail = true): void {
    const writes = run();
    const failed = writes.filter(() => mayFail && this.random.chance(0.08)).map((write) => write.path);
    for (const write of writes) {
      if (!failed.includes(write.path)) this.disk.set(write.path, encode(write.text, write.encoding === 'bytes'));
    }
    if (failed.length > 0) this.ledger.cancelUndo(failed);
  }

  /** Undo and an immediate redo leave the file's bytes and its pending hunks as they were. */
  private undoThenRedo(path: string, hunkId: string): void {
    const disk = this.disk.get(path) ?? null;
    const pending = JSON.stringify(this.ledger.file(path));
    this.undo(() => [this.ledger.undoHunk(path, hunkId)], false);
    const redone = this.ledger.redoLastUndo() ?? [];
    for (const write of redone) this.disk.set(write.path, encode(write.text, write.encoding === 'bytes'));
    const now = this.disk.get(path) ?? null;
    if (!sameBytes(now, disk) || JSON.stringify(this.ledger.file(path)) !== pending) this.problems.push(`${path}: undo then redo did not give back the bytes and hunks from before`);
  }
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

export interface LedgerUndoRun {
  cases: number;
  /** The first case's seed; case i uses seed + i, so a failing case can be run alone. */
  seed?: number;
  /** Checked before each case: true stops the run (a time budget). */
  shouldStop?(): boolean;
  /** Called once a case, with a one-line description of its first difference (undefined when it held). */
  onCase?(difference: string | undefined): void;
}

export interface LedgerUndoResult {
  tried: number;
  /** Cases whose bytes on the disk (or whose undo-then-redo) differed from what they must be. */
  differences: number;
  /** The first few differences, one line each. */
  details: string[];
}

/** Case counts: the full stress run, and the quick one inside `npm test`. */
export const LEDGER_UNDO_CASES = { full: 10_000, quick: 1_000 } as const;

function runCase(seed: number): string | undefined {
  const random = new Random(seed);
  const files = randomFiles(random);
  const review = new ReviewCase(random, files);
  review.review();
  if (review.ledger.files().length > 0) return `seed ${seed}: changes still pending after the review`;
  const wrong = files.find((file) => !sameBytes(review.disk.get(file.path) ?? null, review.expected(file)));
  if (wrong) return `seed ${seed}: ${wrong.path} (${wrong.bytes ? 'bytes' : 'text'}) holds other bytes than the base with exactly the kept hunks`;
  return review.problems[0] && `seed ${seed}: ${review.problems[0]}`;
}

export function runLedgerUndoCases(run: LedgerUndoRun): LedgerUndoResult {
  const result: LedgerUndoResult = { tried: 0, differences: 0, details: [] };
  const first = run.seed ?? 1;
  for (let i = 0; i < run.cases && !run.shouldStop?.(); i++) {
    let difference: string | undefined;
    try {
      difference = runCase(first + i);
    } catch (error) {
      difference = `seed ${first + i}: ${error instanceof Error ? error.message : String(error)}`;
    }
    result.tried++;
    if (difference !== undefined) {
      result.differences++;
      if (result.details.length < 8) result.details.push(difference);
    }
    run.onCase?.(difference);
  }
  return result;
}
