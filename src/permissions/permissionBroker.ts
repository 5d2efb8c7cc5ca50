import type * as acp from '@agentclientprotocol/sdk';
import type { ThreadModel } from '../thread/threadModel';
import { mergeToolCall, newToolCallView, toPermissionOptions } from '../thread/toolCallMapping';
import type { PermissionOptionView, ToolCallView } from '../thread/entries';
import { Emitter } from '../util/emitter';
import { lifetimeLabel } from './grantLifetime';
import type { AgentPermissionPolicy } from './permissionPolicy';

interface PendingRequest {
  options: acp.PermissionOption[];
  tool: ToolCallView;
  sessionId: string;
  resolve(response: acp.RequestPermissionResponse): void;
}

const CANCELLED: acp.RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/** A request asked every time offers no "Always" button, as long as "Allow once" remains. */
function withoutAlways(options: readonly acp.PermissionOption[]): acp.PermissionOption[] {
  const trimmed = options.filter((option) => option.kind !== 'allow_always');
  return trimmed.some((option) => option.kind === 'allow_once') ? trimmed : [...options];
}

/**
 * The answer to a dismissed card, chosen by kind, never by position: "reject once" if offered,
 * else `cancelled`. A "reject always" would make the agent remember a "no" the user never said.
 */
function dismissal(options: readonly acp.PermissionOption[]): acp.RequestPermissionResponse {
  const reject = options.find((option) => option.kind === 'reject_once');
  return reject ? { outcome: { outcome: 'selected', optionId: reject.optionId } } : CANCELLED;
}

/**
 * Turns `session/request_permission` into a card in the thread and waits for the user.
 * Only an option the agent offered can be selected; dismissing never selects an allow option.
 */
export class PermissionBroker {
  private readonly pending = new Map<string, PendingRequest>();
  private nextId = 1;
  /** Tandem's own policy (auto-allow, kept grants); without one every request is asked. */
  private policy: AgentPermissionPolicy | null = null;
  private readonly requested = new Emitter<acp.ToolCallUpdate>();
  /**
   * The tool call of each request as it arrives, answered by the policy or not: some agents
   * (OpenCode) name the file a call will change, and send its diff, only here.
   */
  readonly onRequested = this.requested.event;

  constructor(private readonly thread: ThreadModel) {}

  dispose(): void {
    this.requested.dispose();
  }

  usePolicy(policy: AgentPermissionPolicy | null): void {
    this.policy = policy;
  }

  get openCount(): number {
    return this.pending.size;
  }

  request(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const requestId = `p${this.nextId++}`;
    this.requested.fire(params.toolCall);
    const id = params.toolCall.toolCallId;
    const tool = mergeToolCall(this.thread.toolCall(id) ?? newToolCallView(id), params.toolCall);
    const decision = this.policy?.decide(tool, params.options, params.sessionId) ?? null;
    if (decision) {
      this.thread.notePermission(params.toolCall, decision.reason);
      return Promise.resolve({ outcome: { outcome: 'selected', optionId: decision.optionId } });
    }
    const alwaysAsked = this.policy?.alwaysAskedBecause(tool) ?? null;
    if (alwaysAsked) this.thread.notePermission(params.toolCall, alwaysAsked);
    const shown = alwaysAsked ? withoutAlways(params.options) : params.options;
    return new Promise((resolve) => {
      const settle = (response: acp.RequestPermissionResponse) => {
        if (!this.pending.delete(requestId)) return;
        signal.removeEventListener('abort', onAbort);
        this.thread.clearPermission(requestId);
        resolve(response);
      };
      // The agent withdrew the request ($/cancel_request).
      const onAbort = () => settle(CANCELLED);
      this.pending.set(requestId, { options: params.options, tool, sessionId: params.sessionId, resolve: settle });
      signal.addEventListener('abort', onAbort, { once: true });
      this.thread.setPermission(params.toolCall, requestId, this.withLifetimes(tool, params.options, shown));
      if (signal.aborted) onAbort();
    });
  }

  /** `optionId: null` means the user dismissed the prompt. */
  answer(requestId: string, optionId: string | null): boolean {
    const request = this.pending.get(requestId);
    if (!request) return false;
    if (optionId === null) {
      request.resolve(dismissal(request.options));
      return true;
    }
    if (!request.options.some((option) => option.optionId === optionId)) return false;
    const sent = this.policy ? this.policy.answered(request.tool, request.options, optionId, request.sessionId) : optionId;
    request.resolve({ outcome: { outcome: 'selected', optionId: sent } });
    return true;
  }

  /** The card's options, each "always" saying how long it lasts (without a policy, the agent keeps it). */
  private withLifetimes(tool: ToolCallView, offered: readonly acp.PermissionOption[], shown: readonly acp.PermissionOption[]): PermissionOptionView[] {
    return toPermissionOptions(shown).map((option) => {
      const lifetime = this.policy ? this.policy.lifetimeOf(tool, offered, option) : lifetimeLabel(option, 'agent');
      return lifetime === null ? option : { ...option, lifetime };
    });
  }

  /** After `session/cancel` every open request must be answered `cancelled`. */
  cancelAll(): void {
    for (const request of [...this.pending.values()]) request.resolve(CANCELLED);
  }
}
