import { findSecrets, maskPieces, openSecretStart, searchStart, type TextRange } from './secrets';

/** Text kept from the pieces before, so that the second half of a credential split between two pieces is recognised. */
const CONTEXT_CHARS = 8192;

/** The last `CONTEXT_CHARS` of a text, cut at a word boundary so no credential starts half-way. */
export function recentContext(text: string): string {
  if (text.length <= CONTEXT_CHARS) return text;
  const tail = text.slice(-CONTEXT_CHARS);
  const boundary = tail.search(/\s/);
  return boundary < 0 ? tail : tail.slice(boundary);
}

/**
 * The credentials in `text` that reach past `fresh` (where the piece after its context starts).
 * When it may go on (more pieces follow) and its last word is still open, whatever of that word
 * could begin a credential is masked as well: the rest of it may come in the next piece. Only
 * from the line `fresh` is on is read again (see `searchStart`): a streamed answer's context is
 * kilobytes and its pieces a few characters each.
 */
export function secretsOfPiece(text: string, mayGoOn: boolean, fresh = 0): TextRange[] {
  const from = searchStart(text, fresh);
  const searched = from === 0 ? text : text.slice(from);
  const found = findSecrets(searched);
  const openAt = mayGoOn && /\S$/.test(searched) ? openSecretStart(searched) : null;
  const ranges = openAt === null ? found : [...found, { start: openAt, end: searched.length }];
  return from === 0 ? ranges : ranges.map((range) => ({ start: range.start + from, end: range.end + from }));
}

/**
 * One long text redacted a piece at a time, each piece read after the end of the one before
 * (as streamed text is): the work per piece stays small however long the text, and a
 * credential split between two pieces shows no part of itself.
 */
export class PieceRedaction {
  private context = '';

  /** `piece` redacted; `last`: nothing follows it. */
  next(piece: string, last: boolean): string {
    const text = this.context + piece;
    const [masked = piece] = maskPieces([piece], secretsOfPiece(text, !last, this.context.length), '', this.context.length);
    this.context = last ? '' : recentContext(text);
    return masked;
  }
}
