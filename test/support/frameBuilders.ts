/** Hand-made JSON-RPC frames for inspector tests: each call is one line, one millisecond after the last. */
import type { Frame, FrameDirection } from '../../src/wire/frame';

export class FrameScript {
  readonly frames: Frame[] = [];
  private at: number;

  constructor(start = 1_000) {
    this.at = start;
  }

  line(direction: FrameDirection, text: string, after = 1): this {
    this.at += after;
    this.frames.push({ at: this.at, direction, text });
    return this;
  }

  message(direction: FrameDirection, body: Record<string, unknown>, after = 1): this {
    return this.line(direction, JSON.stringify({ jsonrpc: '2.0', ...body }), after);
  }

  request(direction: FrameDirection, id: number | string, method: string, params: unknown = {}, after = 1): this {
    return this.message(direction, { id, method, params }, after);
  }

  result(direction: FrameDirection, id: number | string, result: unknown = {}, after = 1): this {
    return this.message(direction, { id, result }, after);
  }

  error(direction: FrameDirection, id: number | string, code: number, message: string, after = 1): this {
    return this.message(direction, { id, error: { code, message } }, after);
  }

  update(sessionId: string, update: Record<string, unknown>, after = 1): this {
    return this.message('in', { method: 'session/update', params: { sessionId, update } }, after);
  }

  toolCall(sessionId: string, toolCallId: string, kind: string, extra: Record<string, unknown> = {}): this {
    return this.update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `${kind} ${toolCallId}`, kind, status: 'in_progress', ...extra });
  }

  toolDone(sessionId: string, toolCallId: string, extra: Record<string, unknown> = {}): this {
    return this.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', ...extra });
  }

  /** initialize and session/new answered, as a client opens a session. */
  open(sessionId: string, options: { initId?: number; newId?: number; agentCapabilities?: Record<string, unknown>; clientCapabilities?: Record<string, unknown>; agentName?: string } = {}): this {
    const { initId = 0, newId = 1 } = options;
    return this
      .request('out', initId, 'initialize', { protocolVersion: 1, clientCapabilities: options.clientCapabilities ?? { fs: { readTextFile: true, writeTextFile: true }, terminal: true } })
      .result('in', initId, { protocolVersion: 1, agentCapabilities: options.agentCapabilities ?? {}, agentInfo: { name: options.agentName ?? 'test-agent', version: '1.0.0' }, authMethods: [] }, 5)
      .request('out', newId, 'session/new', { cwd: '/work', mcpServers: [] })
      .result('in', newId, { sessionId }, 3);
  }
}
