import { isRecord } from '../util/untrustedJson';
import { recentContext, secretsOfPiece } from './pieceRedaction';
import { maskPieces } from './secrets';
import type { Frame } from '../wire/frame';
import { finished, LARGE_FRAME_CHARS, largeFrameText } from './largeFrameRedaction';
import { parseFrameText, redactFrameText, redactParsedFrame } from './redact';

/** Updates whose text streams in pieces: a credential can be split between two of them. */
const STREAMED_UPDATES = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);
const MAX_STREAMS = 64;
/** A piece held back this long (in text) is released even if its last word never ends. */
const MAX_HELD_CHARS = 16 * 1024;

interface StreamedPiece {
  readonly frame: Frame;
  readonly message: Record<string, unknown>;
  /** The `content` object whose `text` is the piece. */
  readonly content: Record<string, unknown>;
  readonly text: string;
  /** Direction, session, update kind and message: which pieces continue which. */
  readonly stream: string;
}

function streamedPiece(frame: Frame, message: unknown): StreamedPiece | null {
  if (!isRecord(message) || message.method !== 'session/update' || !isRecord(message.params)) return null;
  const params = message.params;
  const update = params.update;
  if (!isRecord(update) || !STREAMED_UPDATES.has(String(update.sessionUpdate))) return null;
  const content = update.content;
  if (!isRecord(content) || typeof content.text !== 'string') return null;
  const messageId = typeof update.messageId === 'string' ? update.messageId : '';
  const stream = [frame.direction, String(params.sessionId), String(update.sessionUpdate), messageId].join('\u0000');
  return { frame, message, content, text: content.text, stream };
}

/**
 * Redacts frames in order for every view of the traffic (channel, inspector, exports). Streamed
 * text (`agent_message_chunk` and its kind) is redacted over the text of consecutive pieces,
 * not piece by piece: a piece that ends inside a word is held back until the word ends in a
 * later piece, another frame arrives, or the caller releases it as stale, so neither half of a
 * credential split at a piece boundary is shown. Frames come out in the order they went in.
 */
export class FrameRedactor {
  private held: StreamedPiece[] = [];
  private heldChars = 0;
  private readonly contexts = new Map<string, string>();

  /** The frames that can be shown now that `frame` arrived, redacted. */
  push(frame: Frame): Frame[] {
    return frame.text.length > LARGE_FRAME_CHARS ? finished(this.steps(frame)) : this.pushWhole(frame);
  }

  /**
   * `push` in steps, for a caller that lets the host do other work between them: a large
   * frame's long values are redacted a piece per step.
   */
  *steps(frame: Frame): Generator<void, Frame[]> {
    if (frame.text.length > LARGE_FRAME_CHARS) {
      // A streamed piece is read with the pieces around it instead.
      const text = yield* largeFrameText(frame.text, (message) => streamedPiece(frame, message) === null);
      if (text !== undefined) return [...this.release(), { ...frame, text }];
    }
    return this.pushWhole(frame);
  }

  private pushWhole(frame: Frame): Frame[] {
    const message = parseFrameText(frame.text);
    const piece = message === undefined ? null : streamedPiece(frame, message);
    const out = this.held.length > 0 && piece?.stream !== this.held[0]?.stream ? this.release() : [];
    if (!piece) {
      const text = message === undefined ? redactFrameText(frame.text) : redactParsedFrame(message, frame.text);
      return [...out, { ...frame, text }];
    }
    this.held.push(piece);
    this.heldChars += piece.text.length;
    const wordOpen = /\S$/.test(piece.text);
    return wordOpen && this.heldChars < MAX_HELD_CHARS ? out : [...out, ...this.release()];
  }

  get holding(): boolean {
    return this.held.length > 0;
  }

  /** Releases held pieces whose first frame is at or before `cutoff` (ms since the epoch). */
  releaseStale(cutoff: number): Frame[] {
    const first = this.held[0];
    return first && first.frame.at <= cutoff ? this.release() : [];
  }

  /**
   * What releasing the held pieces now would show, without releasing them: a look at the end of
   * a conversation whose stream may still go on.
   */
  preview(): Frame[] {
    return this.shown(this.held).frames;
  }

  /** Shows the held pieces; later pieces of their stream are read after them. */
  private release(): Frame[] {
    const pieces = this.held;
    this.held = [];
    this.heldChars = 0;
    const { frames, streamed } = this.shown(pieces);
    if (pieces[0]) this.remember(pieces[0].stream, streamed);
    return frames;
  }

  /**
   * The pieces redacted over their stream's text. When their last word is still open the stream
   * may go on inside a credential, so whatever of that word could begin one is masked as well.
   */
  private shown(pieces: readonly StreamedPiece[]): { frames: Frame[]; streamed: string } {
    const first = pieces[0];
    if (!first) return { frames: [], streamed: '' };
    const context = this.contexts.get(first.stream) ?? '';
    const streamed = context + pieces.map((piece) => piece.text).join('');
    const texts = maskPieces(pieces.map((piece) => piece.text), secretsOfPiece(streamed, true, context.length), '', context.length);
    const frames = pieces.map((piece, index) => {
      // The parsed message is this redactor's own copy: the piece's text is replaced in place.
      piece.content.text = texts[index];
      const text = redactParsedFrame(piece.message, piece.frame.text);
      piece.content.text = piece.text;
      return { ...piece.frame, text };
    });
    return { frames, streamed };
  }

  private remember(stream: string, streamed: string): void {
    this.contexts.delete(stream);
    this.contexts.set(stream, recentContext(streamed));
    if (this.contexts.size > MAX_STREAMS) this.contexts.delete(this.contexts.keys().next().value ?? stream);
  }
}

/** Every frame redacted, as the inspector and exports show them: nothing is held back at the end. */
export function redactFrames(frames: readonly Frame[]): Frame[] {
  const redactor = new FrameRedactor();
  return [...frames.flatMap((frame) => redactor.push(frame)), ...redactor.releaseStale(Number.POSITIVE_INFINITY)];
}
