import { fileChangingKinds } from '../acp/toolKinds';
import { isRecord } from '../util/untrustedJson';

interface ToolState {
  kind: string;
  open: boolean;
}

const OPEN_STATUSES = new Set(['pending', 'in_progress']);

/** Which running tool call a client request most likely serves, by the request's method. */
function preferredKinds(method: string): (kind: string) => boolean {
  if (method === 'fs/write_text_file') return (kind) => fileChangingKinds.has(kind);
  // An edit reads its file before writing it: a read with no read call running belongs to it.
  if (method === 'fs/read_text_file') return (kind) => kind === 'read' || fileChangingKinds.has(kind);
  return (kind) => kind === 'execute';
}

/**
 * Follows tool calls through the traffic to say which one a frame belongs to: updates and
 * permission requests name it; `fs/*` and `terminal/*` calls do not, so they go to the call of
 * the matching kind that was running in their session when they arrived (as the fs service
 * itself decides which edit a write belongs to), and later terminal calls to the call their
 * terminal was created for, or the one whose content shows that terminal.
 */
export class ToolCallAttribution {
  private readonly tools = new Map<string, ToolState>();
  /** Per session, the tool calls still running, oldest first. */
  private readonly running = new Map<string, string[]>();
  private readonly terminalOwners = new Map<string, string>();

  /** A `tool_call` or `tool_call_update` of `sessionId`. */
  toolUpdate(sessionId: string, update: Record<string, unknown>): string | null {
    const toolCallId = typeof update.toolCallId === 'string' ? update.toolCallId : null;
    if (!toolCallId) return null;
    const known = this.tools.get(toolCallId);
    const state: ToolState = known ?? { kind: 'other', open: true };
    if (typeof update.kind === 'string') state.kind = update.kind;
    if (typeof update.status === 'string') state.open = OPEN_STATUSES.has(update.status);
    else if (!known) state.open = true;
    this.tools.set(toolCallId, state);
    this.track(sessionId, toolCallId, state.open);
    if (Array.isArray(update.content)) {
      for (const item of update.content) {
        if (isRecord(item) && item.type === 'terminal' && typeof item.terminalId === 'string') this.terminalOwners.set(item.terminalId, toolCallId);
      }
    }
    return toolCallId;
  }

  /** The tool call a client request from the agent belongs to, if one can be named. */
  clientRequest(method: string, params: unknown): string | null {
    if (!isRecord(params)) return null;
    if (method === 'session/request_permission') {
      return isRecord(params.toolCall) && typeof params.toolCall.toolCallId === 'string' ? params.toolCall.toolCallId : null;
    }
    const terminalId = typeof params.terminalId === 'string' ? params.terminalId : null;
    if (terminalId && this.terminalOwners.has(terminalId)) return this.terminalOwners.get(terminalId) ?? null;
    if (!method.startsWith('fs/') && method !== 'terminal/create') return null;
    const sessionId = typeof params.sessionId === 'string' ? params.sessionId : '';
    // A write goes only to a running edit, as the fs service records it; others take any running call.
    return this.runningOf(sessionId, preferredKinds(method), method !== 'fs/write_text_file');
  }

  /** `terminal/create` answered: later calls on that terminal belong where the create did. */
  terminalCreated(terminalId: string, toolCallId: string | null): void {
    if (toolCallId && !this.terminalOwners.has(terminalId)) this.terminalOwners.set(terminalId, toolCallId);
  }

  private runningOf(sessionId: string, matches: (kind: string) => boolean, anyAsLastResort: boolean): string | null {
    const open = this.running.get(sessionId) ?? [];
    for (let i = open.length - 1; i >= 0; i--) {
      const id = open[i] as string;
      if (matches(this.tools.get(id)?.kind ?? 'other')) return id;
    }
    return anyAsLastResort ? (open.at(-1) ?? null) : null;
  }

  private track(sessionId: string, toolCallId: string, open: boolean): void {
    let list = this.running.get(sessionId);
    if (!list) {
      list = [];
      this.running.set(sessionId, list);
    }
    const at = list.indexOf(toolCallId);
    if (open && at < 0) list.push(toolCallId);
    if (!open && at >= 0) list.splice(at, 1);
  }
}
