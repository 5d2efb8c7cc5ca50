/**
 * Where a frame carries a piece of a text that streams over many frames, so that a credential
 * can be cut between two of them: message and thought chunks, the display terminal's new output
 * (`_meta.terminal_output`, per terminal), a tool call's text content (per tool call and item)
 * and `terminal/output` answers (per terminal, known from the request they answer).
 */
import { isRecord } from '../util/untrustedJson';
import type { Frame } from '../wire/frame';

/** A string in a parsed frame that continues a stream: `holder[key]` is `text`. */
export interface StreamSlot {
  readonly holder: Record<string, unknown>;
  readonly key: string;
  readonly text: string;
  /** Which pieces continue which: direction, session, kind and the stream's own id. */
  readonly stream: string;
  /** The piece may repeat the stream's text so far (a tool call's content, a terminal's whole output). */
  readonly repeats: boolean;
}

const CHUNKS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);
const TERMINAL_OUTPUT_KEYS = ['terminal_output', 'terminal_output_delta'];
/** `terminal/output` requests whose answers have not gone by, at most this many. */
const MAX_ASKED = 256;

/**
 * An id as a stream's name. Ids are strings or numbers; anything else (a hostile frame's array
 * nested thousands deep, whose String() recurses past the stack) only says what type it was.
 */
const idPart = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : `<${typeof value}>`);
const streamOf = (frame: Frame, ...parts: unknown[]) => [frame.direction, ...parts.map(idPart)].join('\u0000');
/** The request an answer answers: the same id, the other way. */
const askedBy = (answer: Frame, id: unknown) => streamOf({ ...answer, direction: answer.direction === 'in' ? 'out' : 'in' }, id);

function textSlot(holder: unknown, key: string, stream: string, repeats: boolean): StreamSlot[] {
  if (!isRecord(holder) || typeof holder[key] !== 'string') return [];
  return [{ holder, key, text: holder[key], stream, repeats }];
}

function updateSlots(frame: Frame, sessionId: unknown, update: Record<string, unknown>): StreamSlot[] {
  const kind = idPart(update.sessionUpdate);
  if (CHUNKS.has(kind)) return textSlot(update.content, 'text', streamOf(frame, sessionId, kind, update.messageId ?? ''), false);
  if (kind !== 'tool_call' && kind !== 'tool_call_update') return [];
  const slots: StreamSlot[] = [];
  const meta = update._meta;
  for (const key of TERMINAL_OUTPUT_KEYS) {
    const output = isRecord(meta) ? meta[key] : undefined;
    if (isRecord(output)) slots.push(...textSlot(output, 'data', streamOf(frame, sessionId, 'terminal', output.terminal_id), false));
  }
  if (Array.isArray(update.content)) {
    update.content.forEach((item, index) => {
      if (isRecord(item) && item.type === 'content') slots.push(...textSlot(item.content, 'text', streamOf(frame, sessionId, 'tool', update.toolCallId, index), true));
    });
  }
  return slots;
}

/**
 * Finds the stream slots of frames in order. It remembers which terminal each `terminal/output`
 * request asked about, since the answer does not say.
 */
export class StreamSlots {
  private readonly askedOutput = new Map<string, string>();

  /** Notes a request the slots of a later frame depend on; call it for every frame, in order. */
  note(frame: Frame, message: unknown): void {
    if (!isRecord(message) || message.method !== 'terminal/output' || !isRecord(message.params) || message.id === undefined) return;
    this.askedOutput.set(streamOf(frame, message.id), streamOf(frame, message.params.sessionId, 'terminal/output', message.params.terminalId));
    if (this.askedOutput.size > MAX_ASKED) this.askedOutput.delete(this.askedOutput.keys().next().value ?? '');
  }

  slotsOf(frame: Frame, message: unknown): StreamSlot[] {
    if (!isRecord(message)) return [];
    if (message.method === 'session/update' && isRecord(message.params) && isRecord(message.params.update)) {
      return updateSlots(frame, message.params.sessionId, message.params.update);
    }
    const asked = message.id === undefined ? undefined : this.askedOutput.get(askedBy(frame, message.id));
    return asked === undefined ? [] : textSlot(message.result, 'output', asked, true);
  }

  /** Forgets the request a frame answers, once its answer has gone by. */
  answered(frame: Frame, message: unknown): void {
    if (isRecord(message) && message.method === undefined && message.id !== undefined) {
      this.askedOutput.delete(askedBy(frame, message.id));
    }
  }
}

/** Overlaps shorter than this are taken for chance, not for output seen again. */
const MIN_OVERLAP = 16;
const OVERLAP_PROBE = 64;

/**
 * The part of a stream's text `before` that `next` does not repeat: all of it when `next` starts
 * afresh, the part before the repeated tail when `next` repeats the end of it (a terminal's
 * output whose start was dropped at its byte limit), nothing when `next` repeats it whole.
 */
export function unrepeated(before: string, next: string): string {
  if (next.startsWith(before)) return '';
  const probe = next.slice(0, OVERLAP_PROBE);
  if (probe.length >= MIN_OVERLAP) {
    for (let at = before.indexOf(probe); at >= 0; at = before.indexOf(probe, at + 1)) {
      if (next.startsWith(before.slice(at))) return before.slice(0, at);
    }
  }
  for (let length = Math.min(probe.length - 1, before.length); length >= MIN_OVERLAP; length--) {
    if (next.startsWith(before.slice(-length))) return before.slice(0, -length);
  }
  return before;
}
