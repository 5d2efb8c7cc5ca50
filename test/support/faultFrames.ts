/**
 * Malformed and adversarial frames, as a faulty or hostile agent would write them on its
 * stdout: bad JSON, binary, wrong types, unknown methods, wrong and unknown ids, deep nesting,
 * hostile content in well-formed updates, lines over the SDK's limit and a last line without
 * its newline. Pure: the same `next` sequence gives the same frames.
 */

export type FrameKind =
  | 'badJson' | 'binary' | 'wrongTypes' | 'unknownMethod' | 'wrongId' | 'unknownId' | 'hostileUpdate' | 'notAnObject' | 'deepNested'
  /** The kinds below end the connection: each is the last frame of its batch. */
  | 'overLimit' | 'deepUnanswerable' | 'noFinalNewline';

export const ENDING_KINDS = ['overLimit', 'deepUnanswerable', 'noFinalNewline'] as const satisfies readonly FrameKind[];
export type EndingKind = (typeof ENDING_KINDS)[number];

export interface AdversarialFrame {
  kind: FrameKind;
  /** The bytes of the line, without its newline; `sessionId` is the session the frame may aim at. */
  line(sessionId: string): string | Uint8Array;
}

/** The SDK's limit on one line. */
export const SDK_LINE_LIMIT = 32 * 1024 * 1024;
/** Deep enough that the SDK cannot serialize an answer that echoes it (the stack runs out first). */
const DEEP = 10_000;

type Next = () => number;
const int = (next: Next, below: number) => Math.floor(next() * below);
const pick = <T>(next: Next, items: readonly T[]): T => items[int(next, items.length)] as T;
const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;
const rpc = (body: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...body });
const update = (sessionId: unknown, sessionUpdate: Record<string, unknown>) => rpc({ method: 'session/update', params: { sessionId, update: sessionUpdate } });
const chunk = (text: unknown) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

const BAD_JSON: readonly ((next: Next) => string)[] = [
  () => '{"jsonrpc":"2.0","method":"session/update","params":{',
  () => "{'jsonrpc':'2.0','method':'session/update'}",
  () => '{"jsonrpc":"2.0",}',
  () => '{jsonrpc:"2.0",method:"x"}',
  () => '{"jsonrpc":"2.0","id":1,"result":NaN}',
  () => '{"a":1}{"b":2}',
  () => '{"jsonrpc":"2.0","method":"session/update","params":{"text":"unterminated}',
  () => ']]]}}}',
  (next) => Array.from({ length: 1 + int(next, 80) }, () => String.fromCharCode(32 + int(next, 95))).join(''),
  (next) => `${rpc({ method: 'session/update', params: {} })}${'}'.repeat(1 + int(next, 3))}`,
];

function binary(next: Next): Uint8Array {
  const bytes = new Uint8Array(1 + int(next, 200));
  for (let index = 0; index < bytes.length; index++) {
    const byte = int(next, 256);
    bytes[index] = byte === 0x0a ? 0x00 : byte;
  }
  if (bytes.length >= 3 && next() < 0.2) bytes.set([0xef, 0xbb, 0xbf]);
  return bytes;
}

const WRONG_TYPES: readonly ((sessionId: string, next: Next) => string)[] = [
  () => JSON.stringify({ jsonrpc: '1.0', method: 'session/update', params: {} }),
  () => JSON.stringify({ method: 'session/update', params: {} }),
  () => rpc({ method: 42, params: {} }),
  () => rpc({ method: ['session/update'], params: {} }),
  () => rpc({ method: 'session/update', params: 'text' }),
  () => rpc({ method: 'session/update', params: [1, 2, 3] }),
  () => rpc({ id: { nested: true }, method: 'session/request_permission', params: {} }),
  () => rpc({ id: true, method: 'fs/read_text_file', params: {} }),
  () => update(42, chunk('x')),
  (sessionId) => update(sessionId, 'agent_message_chunk' as unknown as Record<string, unknown>),
  (sessionId) => update(sessionId, chunk(42)),
  (sessionId) => update(sessionId, { sessionUpdate: 'tool_call', toolCallId: 7, title: null, status: 42, kind: 'bogus', locations: 'here' }),
  (sessionId) => update(sessionId, { sessionUpdate: 'plan', entries: 'step one' }),
  (sessionId) => update(sessionId, { sessionUpdate: 'usage_update', used: -1, size: 'big' }),
  (sessionId, next) => rpc({ id: 900_000 + int(next, 1000), method: 'session/request_permission', params: { sessionId, options: 'yes', toolCall: null } }),
  (sessionId, next) => rpc({ id: `fs-${int(next, 1000)}`, method: 'fs/read_text_file', params: { sessionId, path: 12 } }),
  (sessionId, next) => rpc({ id: int(next, 1e6) + 0.5, method: 'terminal/create', params: { sessionId, command: ['ls'] } }),
];

const UNKNOWN_METHODS = ['foo/bar', 'session/unknown', '_tandem/backdoor', 'fs/delete_everything', 'terminal/sudo', '', 'initialize', 'session/prompt', '$/cancel_request'];

function unknownMethod(sessionId: string, next: Next): string {
  const method = pick(next, UNKNOWN_METHODS);
  const params = next() < 0.5 ? { sessionId } : { requestId: int(next, 50) };
  return next() < 0.5 ? rpc({ method, params }) : rpc({ id: `unknown-${int(next, 1e6)}`, method, params });
}

/** Responses to ids Tandem uses (its requests count from 0): forged answers to what may be pending. */
function wrongId(_sessionId: string, next: Next): string {
  const id = int(next, 12);
  return pick(next, [
    () => rpc({ id, result: {} }),
    () => rpc({ id, result: { stopReason: 'not-a-reason' } }),
    () => rpc({ id, error: { code: 'bad', message: 42 } }),
    () => rpc({ id, result: 1, error: { code: -32000, message: 'both' } }),
    () => rpc({ id }),
    () => rpc({ id, error: { code: -32603, message: 'forged failure' } }),
  ])();
}

function unknownId(_sessionId: string, next: Next): string {
  const id = pick(next, [1e15, -1, 'abc', null, 1.5, 'x'.repeat(1000), 2 ** 53 + 2]);
  return next() < 0.5 ? rpc({ id, result: { anything: true } }) : rpc({ id, error: { code: -32000, message: 'to nobody' } });
}

const HOSTILE_UPDATES: readonly ((sessionId: string, next: Next) => string)[] = [
  (sessionId) => update(sessionId, { sessionUpdate: 'not_a_kind', content: {} }),
  (sessionId, next) => update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: `never-announced-${int(next, 1e6)}`, status: 'completed' }),
  (sessionId, next) => update(sessionId, chunk('\u001b[31m\u0000\u0007\r'.repeat(1 + int(next, 50)))),
  (sessionId, next) => update(sessionId, chunk('x'.repeat(int(next, 200_000)))),
  // Too deep for JSON.stringify here as well: spliced in as text.
  (sessionId) => update(sessionId, { ...chunk(''), _meta: { deep: 'DEEP' } }).replace('"DEEP"', nested(DEEP)),
  (sessionId) => update(sessionId, { sessionUpdate: 'tool_call', toolCallId: 'deep-raw', title: 'Deep', kind: 'other', status: 'pending', rawInput: { deep: 'DEEP' } }).replace('"DEEP"', nested(1000)),
  (sessionId) => update(sessionId, { sessionUpdate: 'current_mode_update', currentModeId: 'no-such-mode' }),
  (sessionId) => update(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: '', description: null }] }),
  (sessionId) => update(`${sessionId}-other`, chunk('for another session')),
  (sessionId) => rpc({ id: `perm-${sessionId}`, method: 'session/request_permission', params: { sessionId: 'no-such-session', options: [], toolCall: { toolCallId: 'x' } } }),
];

/** Not objects at all, or empty: the SDK answers some, skips others. */
const NOT_AN_OBJECT = ['', '   ', '\r', '[]', '[{"jsonrpc":"2.0","method":"session/update"}]', '{}', 'null', '42', '"text"', 'true', '\uFEFF{}'];

/** Deep nesting the SDK reads and answers (it validates, it does not echo). */
function deepNested(sessionId: string, next: Next): string {
  const deep = next() < 0.5 ? nested(DEEP) : `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
  const around = pick(next, [
    rpc({ method: 'session/update', params: 'DEEP' }),
    rpc({ id: 5, result: 'DEEP' }),
    rpc({ id: 6, method: 'session/request_permission', params: { sessionId, deep: 'DEEP' } }),
  ]);
  // A bare deep array is answered as a batch; a bare deep object is echoed (see endingFrame).
  return next() < 0.2 ? nested(DEEP) : around.replace('"DEEP"', deep);
}

/** A frame that ends the connection: the SDK stops reading or cannot answer it. */
export function endingFrame(kind: EndingKind, next: Next): AdversarialFrame {
  switch (kind) {
    case 'overLimit':
      return { kind, line: (sessionId) => update(sessionId, chunk('PLACEHOLDER')).replace('PLACEHOLDER', 'x'.repeat(SDK_LINE_LIMIT)) };
    case 'deepUnanswerable':
      // The SDK answers an invalid message by echoing it, and a deep id by repeating it.
      return {
        kind,
        line: () => pick(next, [`{"jsonrpc":"2.0","deep":${nested(DEEP)}}`, `{"jsonrpc":"2.0","id":${nested(DEEP)},"method":"x"}`, `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`]),
      };
    case 'noFinalNewline':
      return { kind, line: (sessionId) => update(sessionId, chunk('the last line, without its newline')) };
  }
}

const ORDINARY: readonly [FrameKind, (sessionId: string, next: Next) => string | Uint8Array][] = [
  ['badJson', (_sessionId, next) => pick(next, BAD_JSON)(next)],
  ['binary', (_sessionId, next) => binary(next)],
  ['wrongTypes', (sessionId, next) => pick(next, WRONG_TYPES)(sessionId, next)],
  ['unknownMethod', unknownMethod],
  ['wrongId', wrongId],
  ['unknownId', unknownId],
  ['hostileUpdate', (sessionId, next) => pick(next, HOSTILE_UPDATES)(sessionId, next)],
  ['notAnObject', (_sessionId, next) => pick(next, NOT_AN_OBJECT)],
  ['deepNested', deepNested],
];

/**
 * `count` frames; one in `endingEvery` ends the connection (cycling through the ending kinds),
 * the rest are ones a connection must survive. Lines draw from `next` as they are rendered:
 * rendered in order, the same seed gives the same bytes.
 */
export function* adversarialFrames(count: number, next: Next, endingEvery = 2000): Generator<AdversarialFrame> {
  let endings = 0;
  for (let index = 1; index <= count; index++) {
    if (index % endingEvery === 0) {
      yield endingFrame(ENDING_KINDS[endings++ % ENDING_KINDS.length] as EndingKind, next);
      continue;
    }
    const [kind, make] = pick(next, ORDINARY);
    yield { kind, line: (sessionId) => make(sessionId, next) };
  }
}

export function isEnding(kind: FrameKind): kind is EndingKind {
  return (ENDING_KINDS as readonly FrameKind[]).includes(kind);
}
