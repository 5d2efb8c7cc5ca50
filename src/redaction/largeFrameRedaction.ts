import { PieceRedaction } from './pieceRedaction';
import { parseFrameText, redactValue } from './redact';

/**
 * Frames longer than this go through the redaction in steps (a multi-megabyte file answer
 * costs about 70 ms per MB to search for credentials).
 */
export const LARGE_FRAME_CHARS = 256 * 1024;
/** String values longer than this (as written in the frame) are redacted a piece at a time. */
const LONG_VALUE_CHARS = 64 * 1024;
/** About this much of a long value per step: a few milliseconds of work. */
const PIECE_CHARS = 32 * 1024;
/** How far past a piece's size its end looks for a line break, so that a line is not cut in two. */
const LINE_REACH = 16 * 1024;
/** Characters of the frame scanned for its strings per step. */
const SCAN_STEP = 1024 * 1024;
/**
 * Stands in for a long value while the rest of the frame is redacted: a control character, a
 * name no frame can know in advance, the value's index and the control character again.
 */
const markerName = () => `\u0000tandem-${Math.random().toString(36).slice(2)}:`;
const MARKER_END = JSON.stringify('\u0000').slice(1);

const BACKSLASH = 0x5c;

/** A string literal of the frame text: `start` at its opening quote, `end` after its closing one. */
interface Literal {
  readonly start: number;
  readonly end: number;
}

/** Runs the steps at once. */
export function finished<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Whether the quote at `at` ends a string: it is not escaped by an odd run of backslashes. */
function unescapedQuote(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 0;
}

/** Whether what follows `from` makes the string before it an object key. */
function isKey(text: string, from: number): boolean {
  let at = from;
  while (/[ \t\r\n]/.test(text.charAt(at))) at++;
  return text.charAt(at) === ':';
}

/** The long string values of a frame's JSON text (not keys), in order. */
function* longValues(text: string): Generator<void, Literal[]> {
  const found: Literal[] = [];
  let open = -1;
  let pauseAt = SCAN_STEP;
  for (let at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 1)) {
    if (open < 0) open = at;
    else if (unescapedQuote(text, at)) {
      if (at - open - 1 > LONG_VALUE_CHARS && !isKey(text, at + 1)) found.push({ start: open, end: at + 1 });
      open = -1;
    }
    if (at >= pauseAt) {
      pauseAt = at + SCAN_STEP;
      yield;
    }
  }
  return found;
}

/** Characters of the escape sequence or character at `at` of a string literal's text. */
function unitLength(text: string, at: number): number {
  if (text.charCodeAt(at) !== BACKSLASH) return 1;
  return text.charAt(at + 1) === 'u' ? 6 : 2;
}

/** Whether `at` falls between the two halves of a surrogate pair, written as is or escaped. */
function splitsPair(text: string, at: number): boolean {
  const high = (code: number) => code >= 0xd800 && code <= 0xdbff;
  if (high(text.charCodeAt(at - 1))) return true;
  return text.charCodeAt(at - 6) === BACKSLASH && text.charAt(at - 5) === 'u' && high(Number.parseInt(text.slice(at - 4, at), 16));
}

/**
 * Where a piece of a literal's text that starts at `from` ends: after a line break near its
 * size if there is one, else at the first place that cuts no escape sequence or character.
 */
function pieceEnd(text: string, from: number, end: number): number {
  const target = from + PIECE_CHARS;
  if (target >= end) return end;
  let at = from;
  while (at < target) at += unitLength(text, at);
  let fallback = -1;
  for (const reach = at + LINE_REACH; at < end && at < reach; ) {
    if (fallback < 0 && !splitsPair(text, at)) fallback = at;
    const length = unitLength(text, at);
    if (length === 2 && text.charAt(at + 1) === 'n') return at + 2;
    at += length;
  }
  return at >= end ? end : fallback >= 0 ? fallback : at;
}

/**
 * A long value's text redacted a piece at a time, as written in JSON, without its quotes. Put
 * together by concatenation, which copies nothing until the text is read.
 */
function* redactedValue(text: string, literal: Literal): Generator<void, string> {
  const redaction = new PieceRedaction();
  const end = literal.end - 1;
  let out = '';
  for (let from = literal.start + 1; from < end; ) {
    const to = pieceEnd(text, from, end);
    const piece = JSON.parse(`"${text.slice(from, to)}"`) as string;
    out += JSON.stringify(redaction.next(piece, to >= end)).slice(1, -1);
    from = to;
    yield;
  }
  return out;
}

/**
 * A list of strings is redacted as the line its words make (see `redactValue`): a long value in
 * one goes back in, to be redacted with its neighbours as always.
 */
function restoreInLists(value: unknown, original: (marker: string) => string | undefined): void {
  if (Array.isArray(value)) {
    const strings = value.every((item) => typeof item === 'string');
    value.forEach((item, index) => {
      const restored = strings ? original(item as string) : undefined;
      if (restored !== undefined) value[index] = restored;
      else restoreInLists(item, original);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) restoreInLists(child, original);
  }
}

/**
 * A large frame's JSON text redacted as `redactParsedFrame` does, in steps: the frame with its
 * long string values taken out is redacted at once, and each long value a piece at a time.
 * Undefined when this does not apply (no long value, not JSON, or `accept` refuses the
 * message): the caller redacts it whole.
 */
export function* largeFrameText(text: string, accept: (message: unknown) => boolean): Generator<void, string | undefined> {
  const literals = yield* longValues(text);
  if (literals.length === 0) return undefined;
  const name = markerName();
  const skeleton: string[] = [];
  let at = 0;
  literals.forEach((literal, index) => {
    skeleton.push(text.slice(at, literal.start), JSON.stringify(`${name}${index}\u0000`));
    at = literal.end;
  });
  skeleton.push(text.slice(at));
  const message = parseFrameText(skeleton.join(''));
  if (message === undefined || !accept(message)) return undefined;
  let redacted: string;
  try {
    restoreInLists(message, (item) => {
      const literal = item.startsWith(name) ? literals[Number.parseInt(item.slice(name.length), 10)] : undefined;
      return literal && (JSON.parse(text.slice(literal.start, literal.end)) as string);
    });
    redacted = JSON.stringify(redactValue(message));
  } catch {
    // Nested too deep to walk: the whole redaction has its own way with that.
    return undefined;
  }
  const start = JSON.stringify(name).slice(0, -1);
  let out = '';
  let from = 0;
  for (let marker = redacted.indexOf(start); marker >= 0; marker = redacted.indexOf(start, from)) {
    const close = redacted.indexOf(MARKER_END, marker);
    const literal = literals[Number.parseInt(redacted.slice(marker + start.length, close), 10)];
    // Up to the opening quote; the marker's closing quote closes the value.
    out += redacted.slice(from, marker + 1);
    if (literal) out += yield* redactedValue(text, literal);
    from = close + MARKER_END.length - 1;
  }
  return out + redacted.slice(from);
}
