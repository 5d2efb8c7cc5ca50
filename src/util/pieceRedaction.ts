import { findSecrets, maskPieces, openSecretStart, type TextRange } from './secrets';

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
 * The credentials in `text`. When it may go on (more pieces follow) and its last word is still
 * open, whatever of that word could begin a credential is masked as well: the rest of it may
 * come in the next piece.
 */
export function secretsOfPiece(text: string, mayGoOn: boolean): TextRange[] {
  const ranges = findSecrets(text);
  const openAt = mayGoOn && /\S$/.test(text) ? openSecretStart(text) : null;
  return openAt === null ? ranges : [...ranges, { start: openAt, end: text.length }];
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
    const [masked = piece] = maskPieces([piece], secretsOfPiece(text, !last), '', this.context.length);
    this.context = last ? '' : recentContext(text);
    return masked;
  }
}
