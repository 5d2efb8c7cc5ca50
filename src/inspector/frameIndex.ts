import type * as acp from '@agentclientprotocol/sdk';
import type { Frame, FrameDirection } from '../wire/frame';
import type { FrameMarkKindView } from './frameRows';
import { parseFrameText } from '../redaction/redact';
import { isRecord } from '../util/untrustedJson';
import { rpcMessage, type RpcKind, type RpcMessage } from '../wire/rpcMessage';
import { ToolCallAttribution } from './toolCallAttribution';

export type FrameMarkKind = FrameMarkKindView;

export interface FrameMark {
  kind: FrameMarkKind;
  reason: string;
}

export interface IndexedFrame {
  /** Position in the frames the index was built over. */
  readonly index: number;
  readonly at: number;
  readonly direction: FrameDirection;
  /** UTF-8 bytes of the line. */
  readonly size: number;
  readonly kind: RpcKind;
  /** The JSON-RPC id as a key (`3`, `"abc"`); null for notifications and malformed lines. */
  readonly id: string | null;
  /** The frame's own method, or for a response its request's. */
  method: string | null;
  sessionId: string | null;
  /** The `sessionUpdate` of a `session/update`. */
  readonly updateKind: string | null;
  /** The request of a response, the response of a request. */
  pair: number | null;
  /** For a request and its response: how long the answer took. */
  latencyMs: number | null;
  toolCallId: string | null;
  /** The connection (agent process) the frame went over; null in frames that do not say. */
  readonly connection: number | null;
  /** An error response's code. */
  readonly errorCode: number | null;
  mark: FrameMark | null;
}

export interface FrameIndex {
  readonly frames: readonly IndexedFrame[];
  /** Frame positions per tool call, in order. */
  readonly byToolCall: ReadonlyMap<string, readonly number[]>;
  /** Every method seen, sorted: the inspector's method filter offers these. */
  readonly methods: readonly string[];
  /** Every connection seen, in order, with the agent that answered its `initialize` (name and version). */
  readonly connections: readonly { connection: number; agent: string | null }[];
}

/** Sees every parsed frame of an index build, in order: one pass serves the index and a report. */
export type FrameObserver = (frame: IndexedFrame, message: RpcMessage) => void;

/** Every variant this version of ACP defines; the record's type makes the list complete. */
const SESSION_UPDATE_KINDS: Record<acp.SessionUpdate['sessionUpdate'], true> = {
  user_message_chunk: true, agent_message_chunk: true, agent_thought_chunk: true, tool_call: true, tool_call_update: true, plan: true,
  available_commands_update: true, current_mode_update: true, config_option_update: true, session_info_update: true, usage_update: true,
  notice: true, compaction_update: true, compaction_summary_chunk: true,
};

export function isKnownUpdateKind(kind: string): boolean {
  return Object.hasOwn(SESSION_UPDATE_KINDS, kind);
}

function sessionOf(params: unknown): string | null {
  return isRecord(params) && typeof params.sessionId === 'string' ? params.sessionId : null;
}

function updateOf(message: RpcMessage): Record<string, unknown> | null {
  if (message.kind !== 'notification' || message.method !== 'session/update' || !isRecord(message.params)) return null;
  return isRecord(message.params.update) ? message.params.update : null;
}

function updateMark(update: Record<string, unknown> | null, kind: string | null): FrameMark | null {
  if (!update) return null;
  if (kind === null) return { kind: 'malformed', reason: 'a session/update without a sessionUpdate kind' };
  return isKnownUpdateKind(kind) ? null : { kind: 'unknown', reason: `"${kind}" is not a session/update this version of ACP defines: nothing shows it` };
}

/** Where requests wait for their answers: ids are per direction (each side numbers its own). */
class OpenRequests {
  private readonly open = new Map<string, number[]>();

  add(direction: FrameDirection, id: string, index: number): void {
    const key = `${direction}:${id}`;
    const waiting = this.open.get(key);
    if (waiting) waiting.push(index);
    else this.open.set(key, [index]);
  }

  /** The oldest unanswered request the other side sent with this id. */
  take(responseDirection: FrameDirection, id: string): number | null {
    const waiting = this.open.get(`${responseDirection === 'in' ? 'out' : 'in'}:${id}`);
    return waiting?.shift() ?? null;
  }
}

/** Builds the per-frame facts and the tool-call and method indexes in one pass over the frames. */
export class FrameIndexBuilder {
  private readonly frames: IndexedFrame[] = [];
  private readonly byToolCall = new Map<string, number[]>();
  private readonly methods = new Set<string>();
  private readonly connections = new Map<number, string | null>();
  private readonly requests = new OpenRequests();
  private readonly attribution = new ToolCallAttribution();

  constructor(private readonly observer: FrameObserver | null = null) {}

  add(frame: Frame): IndexedFrame {
    const message = rpcMessage(parseFrameText(frame.text));
    const update = updateOf(message);
    const updateKind = update && typeof update.sessionUpdate === 'string' ? update.sessionUpdate : null;
    const params = message.kind === 'request' || message.kind === 'notification' ? message.params : undefined;
    const indexed: IndexedFrame = {
      index: this.frames.length,
      at: frame.at,
      direction: frame.direction,
      size: Buffer.byteLength(frame.text),
      kind: message.kind,
      id: 'id' in message ? message.id : null,
      method: 'method' in message ? message.method : null,
      sessionId: sessionOf(params),
      updateKind,
      pair: null,
      latencyMs: null,
      toolCallId: null,
      connection: frame.connection ?? null,
      errorCode: message.kind === 'error' ? message.code : null,
      mark: message.kind === 'malformed' ? { kind: 'malformed', reason: message.reason } : updateMark(update, updateKind),
    };
    this.frames.push(indexed);
    this.link(indexed, message, update);
    if (indexed.method) this.methods.add(indexed.method);
    if (indexed.connection !== null) this.noteConnection(indexed, message);
    if (indexed.toolCallId) this.attach(indexed.toolCallId, indexed.index);
    this.observer?.(indexed, message);
    return indexed;
  }

  build(): FrameIndex {
    const connections = [...this.connections].map(([connection, agent]) => ({ connection, agent }));
    return { frames: this.frames, byToolCall: this.byToolCall, methods: [...this.methods].sort(), connections };
  }

  /** A connection is named by the agent that answered its `initialize`. */
  private noteConnection(frame: IndexedFrame, message: RpcMessage): void {
    const connection = frame.connection as number;
    if (!this.connections.has(connection)) this.connections.set(connection, null);
    if (frame.method !== 'initialize' || message.kind !== 'result' || !isRecord(message.result)) return;
    const info = message.result.agentInfo;
    if (isRecord(info) && typeof info.name === 'string') this.connections.set(connection, typeof info.version === 'string' ? `${info.name} ${info.version}` : info.name);
  }

  private link(frame: IndexedFrame, message: RpcMessage, update: Record<string, unknown> | null): void {
    if (message.kind === 'request') {
      this.requests.add(frame.direction, message.id, frame.index);
      if (frame.direction === 'in') frame.toolCallId = this.attribution.clientRequest(message.method, message.params);
      return;
    }
    if (update && frame.sessionId && (frame.updateKind === 'tool_call' || frame.updateKind === 'tool_call_update')) {
      frame.toolCallId = this.attribution.toolUpdate(frame.sessionId, update);
      return;
    }
    if (message.kind === 'result' || message.kind === 'error') this.answer(frame, message);
  }

  /** A response takes its request's method, session and tool call; both get the latency. */
  private answer(frame: IndexedFrame, message: Extract<RpcMessage, { kind: 'result' | 'error' }>): void {
    const requestIndex = this.requests.take(frame.direction, message.id);
    const request = requestIndex === null ? undefined : this.frames[requestIndex];
    if (!request) {
      frame.mark ??= { kind: 'malformed', reason: `an answer to #${message.id}, which was never asked` };
      return;
    }
    request.pair = frame.index;
    frame.pair = request.index;
    request.latencyMs = frame.latencyMs = frame.at - request.at;
    frame.method = request.method;
    frame.sessionId = request.sessionId ?? (message.kind === 'result' ? sessionOf(message.result) : null);
    request.sessionId ??= frame.sessionId;
    frame.toolCallId = request.toolCallId;
    if (request.method === 'terminal/create' && message.kind === 'result' && isRecord(message.result) && typeof message.result.terminalId === 'string') {
      this.attribution.terminalCreated(message.result.terminalId, request.toolCallId);
    }
  }

  private attach(toolCallId: string, index: number): void {
    const list = this.byToolCall.get(toolCallId);
    if (list) list.push(index);
    else this.byToolCall.set(toolCallId, [index]);
  }
}

export function buildFrameIndex(frames: readonly Frame[], observer: FrameObserver | null = null): FrameIndex {
  const builder = new FrameIndexBuilder(observer);
  for (const frame of frames) builder.add(frame);
  return builder.build();
}
