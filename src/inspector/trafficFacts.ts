import { isRecord } from '../util/untrustedJson';
import type { FrameMark, IndexedFrame } from './frameIndex';
import type { RpcMessage } from '../wire/rpcMessage';

/** How often something was tried and how it went. */
export interface Outcomes {
  calls: number;
  succeeded: number;
  failed: number;
  /** The last error's message. */
  lastError: string | null;
  /** Answers of "method not found": the other side does not serve it. */
  notFound: number;
}

export interface ToolFacts {
  toolCallId: string;
  kind: string;
  title: string;
  /** Files it named: its locations, and path fields of its input. */
  paths: Set<string>;
  /** Files it showed a diff for. */
  diffPaths: Set<string>;
  /** It was put to the user (`session/request_permission`). */
  asked: boolean;
  /**
   * First seen while a loaded session was replayed (from `session/load` to the next prompt: Gemini
   * CLI replays after its answer) and never put to the user: history, not something the agent
   * did in this conversation.
   */
  replayed: boolean;
}

/** `rawInput` fields that name the file a tool works on, as agents spell them. */
const INPUT_PATH_FIELDS = ['file_path', 'filePath', 'path', 'absolute_path', 'notebook_path'];
const METHOD_NOT_FOUND = -32601;
const MAX_META_DEPTH = 8;

export function emptyOutcomes(): Outcomes {
  return { calls: 0, succeeded: 0, failed: 0, lastError: null, notFound: 0 };
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function countInto(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * What the traffic of one conversation shows, gathered frame by frame while the index is built
 * (an index observer): the raw facts the fidelity report is made of.
 */
export class TrafficFacts {
  initializeRequest: Record<string, unknown> | null = null;
  initializeResult: Record<string, unknown> | null = null;
  /** Requests Tandem sent, per method, and how the agent answered. */
  readonly sent = new Map<string, Outcomes>();
  /** Requests the agent sent, per method, and how Tandem answered. */
  readonly received = new Map<string, Outcomes>();
  readonly notifications = new Map<string, number>();
  readonly updateKinds = new Map<string, number>();
  readonly metaKeys = new Map<string, number>();
  readonly promptContent = new Map<string, number>();
  readonly tools = new Map<string, ToolFacts>();
  /** Files the agent had Tandem write (`fs/write_text_file` answered without error), with counts. */
  readonly editorWrites = new Map<string, number>();
  /** Files the agent had Tandem read (`fs/read_text_file`), with counts. */
  readonly editorReads = new Map<string, number>();
  /** The path of each fs request still waiting for its answer, by the request's position. */
  private readonly fsPaths = new Map<number, string>();
  /** A loaded session's replay may be arriving: from `session/load` until a prompt or a new session (or the load failed). */
  private replaying = false;
  readonly marks: { index: number; mark: FrameMark }[] = [];

  readonly observe = (frame: IndexedFrame, message: RpcMessage): void => {
    if (frame.mark) this.marks.push({ index: frame.index, mark: frame.mark });
    if (message.kind === 'malformed') return;
    this.collectMeta(message, 0);
    switch (message.kind) {
      case 'request':
        return this.request(frame, message.method, message.params);
      case 'notification':
        return this.notification(frame, message.method, message.params);
      case 'result':
      case 'error':
        return this.response(frame, message);
    }
  };

  private outcomes(method: string, asked: 'in' | 'out'): Outcomes {
    const table = asked === 'out' ? this.sent : this.received;
    let outcomes = table.get(method);
    if (!outcomes) {
      outcomes = emptyOutcomes();
      table.set(method, outcomes);
    }
    return outcomes;
  }

  private request(frame: IndexedFrame, method: string, params: unknown): void {
    this.outcomes(method, frame.direction).calls++;
    if (!isRecord(params)) return;
    if (frame.direction === 'out') this.clientRequest(method, params);
    else this.agentRequest(frame, method, params);
  }

  private clientRequest(method: string, params: Record<string, unknown>): void {
    if (method === 'initialize') this.initializeRequest ??= params;
    if (method === 'session/load' || method === 'session/prompt' || method === 'session/new') this.replaying = method === 'session/load';
    if (method !== 'session/prompt' || !Array.isArray(params.prompt)) return;
    for (const block of params.prompt) if (isRecord(block) && typeof block.type === 'string') countInto(this.promptContent, block.type);
  }

  private agentRequest(frame: IndexedFrame, method: string, params: Record<string, unknown>): void {
    if (method.startsWith('fs/') && typeof params.path === 'string') this.fsPaths.set(frame.index, params.path);
    if (method !== 'session/request_permission' || !isRecord(params.toolCall)) return;
    const tool = this.tool(params.toolCall);
    if (!tool) return;
    tool.asked = true;
    tool.replayed = false;
  }

  private notification(frame: IndexedFrame, method: string, params: unknown): void {
    countInto(this.notifications, `${frame.direction === 'in' ? 'agent' : 'client'} ${method}`);
    if (method !== 'session/update' || !isRecord(params) || !isRecord(params.update)) return;
    if (frame.updateKind) countInto(this.updateKinds, frame.updateKind);
    if (frame.updateKind === 'tool_call' || frame.updateKind === 'tool_call_update') this.tool(params.update);
  }

  private response(frame: IndexedFrame, message: Extract<RpcMessage, { kind: 'result' | 'error' }>): void {
    if (frame.pair === null || !frame.method) return;
    const outcomes = this.outcomes(frame.method, frame.direction === 'in' ? 'out' : 'in');
    const path = this.fsPaths.get(frame.pair);
    this.fsPaths.delete(frame.pair);
    if (message.kind === 'result') {
      outcomes.succeeded++;
      if (path !== undefined) countInto(frame.method === 'fs/write_text_file' ? this.editorWrites : this.editorReads, path);
      if (frame.method === 'initialize' && frame.direction === 'in' && isRecord(message.result)) this.initializeResult ??= message.result;
      return;
    }
    outcomes.failed++;
    outcomes.lastError = message.message;
    if (frame.method === 'session/load') this.replaying = false;
    if (message.code === METHOD_NOT_FOUND) outcomes.notFound++;
  }

  private tool(update: Record<string, unknown>): ToolFacts | null {
    if (typeof update.toolCallId !== 'string') return null;
    let tool = this.tools.get(update.toolCallId);
    if (!tool) {
      tool = { toolCallId: update.toolCallId, kind: 'other', title: '', paths: new Set(), diffPaths: new Set(), asked: false, replayed: this.replaying };
      this.tools.set(update.toolCallId, tool);
    }
    if (typeof update.kind === 'string') tool.kind = update.kind;
    if (typeof update.title === 'string' && update.title) tool.title = update.title;
    for (const location of records(update.locations)) if (typeof location.path === 'string') tool.paths.add(location.path);
    const input = isRecord(update.rawInput) ? update.rawInput : {};
    for (const field of INPUT_PATH_FIELDS) {
      const value = input[field];
      if (typeof value === 'string' && value) tool.paths.add(value);
    }
    for (const item of records(update.content)) if (item.type === 'diff' && typeof item.path === 'string') tool.diffPaths.add(item.path);
    return tool;
  }

  /** `_meta` keys anywhere in a message (`claudeCode`, `terminal_output`): the agent's extensions. */
  private collectMeta(value: unknown, depth: number): void {
    if (depth > MAX_META_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) this.collectMeta(item, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '_meta' && isRecord(child)) {
        for (const metaKey of Object.keys(child)) countInto(this.metaKeys, metaKey);
      } else if (typeof child === 'object' && child !== null) {
        this.collectMeta(child, depth + 1);
      }
    }
  }
}
