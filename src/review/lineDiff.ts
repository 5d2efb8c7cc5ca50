/**
 * Line diff for review hunks. jsdiff's Myers diff costs O((N + M) * D): on a 20,000-line file
 * with a few hundred scattered edits that is tens of milliseconds, and a rewritten file can take
 * seconds. So, like git's patience diff, we first cut the problem at lines that occur exactly
 * once on both sides (anchors, longest increasing run), trim common ends, and hand jsdiff only
 * the small gaps in between, with an edit-length budget so that no gap can stall the host.
 */
import { diffArrays } from 'diff';

/** One maximal run of changed lines: a[aStart, aStart + aCount) became b[bStart, bStart + bCount). */
export interface LineEdit {
  aStart: number;
  aCount: number;
  bStart: number;
  bCount: number;
}

/** Ranges up to this many lines (both sides together) go straight to Myers: minimal and cheap. */
const DIRECT_MYERS_LINES = 400;
/**
 * Myers gives up past this many inserted + deleted lines and the gap becomes one hunk. jsdiff's
 * time grows about with its square: ~70 ms at 1,000 on 20,000-line sides, ~0.8 s at 4,000.
 */
const MAX_EDIT_LENGTH = 1000;
/** Patience recursion depth; deeper gaps go to (bounded) Myers. */
const MAX_DEPTH = 6;

/**
 * The edits that turn `a` into `b`, in order. Lines compare exactly (EOL included). Edits never
 * touch each other: between two edits there is at least one unchanged line.
 */
export function diffLineArrays(a: readonly string[], b: readonly string[]): LineEdit[] {
  const edits: LineEdit[] = [];
  diffRange(a, b, 0, a.length, 0, b.length, 0, edits);
  return mergeTouching(edits);
}

function diffRange(
  a: readonly string[], b: readonly string[], aStart: number, aEnd: number, bStart: number, bEnd: number, depth: number, out: LineEdit[],
): void {
  const [aLo, aHi, bLo, bHi] = withoutCommonEnds(a, b, aStart, aEnd, bStart, bEnd);
  if (aLo === aHi && bLo === bHi) return;
  if (aLo === aHi || bLo === bHi) {
    out.push(wholeGap(aLo, aHi, bLo, bHi));
    return;
  }
  const size = aHi - aLo + bHi - bLo;
  if (size <= DIRECT_MYERS_LINES || depth >= MAX_DEPTH) {
    myers(a, b, aLo, aHi, bLo, bHi, out);
    return;
  }
  const { anchors, common } = uniqueAnchors(a, b, aLo, aHi, bLo, bHi);
  if (anchors.length === 0) {
    // Every line not in common must be inserted or deleted: if that alone is over the budget
    // (a rewritten file), do not spend Myers' time to find out.
    if (size - 2 * common > MAX_EDIT_LENGTH) out.push(wholeGap(aLo, aHi, bLo, bHi));
    else myers(a, b, aLo, aHi, bLo, bHi, out);
    return;
  }
  let aFrom = aLo;
  let bFrom = bLo;
  for (let k = 0; k < anchors.length; k += 2) {
    const aAt = anchors[k] ?? aFrom;
    const bAt = anchors[k + 1] ?? bFrom;
    diffRange(a, b, aFrom, aAt, bFrom, bAt, depth + 1, out);
    aFrom = aAt + 1;
    bFrom = bAt + 1;
  }
  diffRange(a, b, aFrom, aHi, bFrom, bHi, depth + 1, out);
}

/** The range [aLo, aHi) x [bLo, bHi) without the lines both sides start and end with. */
function withoutCommonEnds(
  a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number,
): [aLo: number, aHi: number, bLo: number, bHi: number] {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    aLo++;
    bLo++;
  }
  while (aHi > aLo && bHi > bLo && a[aHi - 1] === b[bHi - 1]) {
    aHi--;
    bHi--;
  }
  return [aLo, aHi, bLo, bHi];
}

/** One edit replacing all of a[aLo, aHi) with b[bLo, bHi). */
function wholeGap(aLo: number, aHi: number, bLo: number, bHi: number): LineEdit {
  return { aStart: aLo, aCount: aHi - aLo, bStart: bLo, bCount: bHi - bLo };
}

/**
 * `anchors`: pairs (aIndex, bIndex), flattened, of lines unique in both ranges, keeping the
 * longest run increasing on both sides so they match without crossing. `common`: how many lines
 * the ranges share counting repeats (an upper bound of the longest common subsequence).
 */
function uniqueAnchors(
  a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number,
): { anchors: number[]; common: number } {
  const inA = occurrences(a, aLo, aHi);
  const inB = occurrences(b, bLo, bHi);
  let common = 0;
  for (const [line, inAValue] of inA) {
    const inBValue = inB.get(line);
    if (inBValue !== undefined) common += Math.min(inAValue < 0 ? -inAValue : 1, inBValue < 0 ? -inBValue : 1);
  }
  const aIndexes: number[] = [];
  const bIndexes: number[] = [];
  for (let i = aLo; i < aHi; i++) {
    const line = a[i] ?? '';
    if (inA.get(line) !== i) continue;
    const j = inB.get(line);
    if (j !== undefined && j >= 0) {
      aIndexes.push(i);
      bIndexes.push(j);
    }
  }
  const anchors: number[] = [];
  for (const k of longestIncreasing(bIndexes)) anchors.push(aIndexes[k] ?? 0, bIndexes[k] ?? 0);
  return { anchors, common };
}

/** Per distinct line: its index if it occurs once in the range, else minus its count. */
function occurrences(lines: readonly string[], from: number, to: number): Map<string, number> {
  const seen = new Map<string, number>();
  for (let i = from; i < to; i++) {
    const line = lines[i] ?? '';
    const value = seen.get(line);
    seen.set(line, value === undefined ? i : value >= 0 ? -2 : value - 1);
  }
  return seen;
}

/** Positions of a longest strictly increasing subsequence of `values` (patience sorting, O(n log n)). */
export function longestIncreasing(values: readonly number[]): number[] {
  const tails: number[] = []; // tails[len - 1] = position ending the best run of length len
  const previous = new Int32Array(values.length).fill(-1);
  for (let k = 0; k < values.length; k++) {
    const value = values[k] ?? 0;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tails[middle] ?? 0] ?? 0) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[k] = tails[low - 1] ?? -1;
    tails[low] = k;
  }
  const run: number[] = [];
  for (let k = tails[tails.length - 1] ?? -1; k !== -1; k = previous[k] ?? -1) run.push(k);
  return run.reverse();
}

function myers(a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number, out: LineEdit[]): void {
  const maxEditLength = Math.min(aHi - aLo + bHi - bLo, MAX_EDIT_LENGTH);
  const changes = diffArrays(a.slice(aLo, aHi), b.slice(bLo, bHi), { maxEditLength });
  if (!changes) {
    // Too different to diff within budget: one hunk replacing the whole gap is still exact.
    out.push(wholeGap(aLo, aHi, bLo, bHi));
    return;
  }
  let i = aLo;
  let j = bLo;
  let open: LineEdit | null = null;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      open = null;
      i += change.count;
      j += change.count;
      continue;
    }
    if (!open) {
      open = { aStart: i, aCount: 0, bStart: j, bCount: 0 };
      out.push(open);
    }
    if (change.removed) {
      open.aCount += change.count;
      i += change.count;
    } else {
      open.bCount += change.count;
      j += change.count;
    }
  }
}

/** Gaps are cut at unchanged anchor lines, but an edit can still end where the next begins. */
function mergeTouching(edits: LineEdit[]): LineEdit[] {
  const merged: LineEdit[] = [];
  for (const edit of edits) {
    const last = merged[merged.length - 1];
    if (last && last.aStart + last.aCount === edit.aStart && last.bStart + last.bCount === edit.bStart) {
      last.aCount += edit.aCount;
      last.bCount += edit.bCount;
    } else {
      merged.push({ ...edit });
    }
  }
  return merged;
}
