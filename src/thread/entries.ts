/**
 * The thread's entries and the changes to them: what the thread model builds from `session/update`
 * and the panel renders. Plain data, no SDK: src/contract publishes it to the webview.
 */
import type { ToolKindView } from '../acp/toolKinds';
import type { ElicitationView } from './elicitationForm';

/** ACP statuses plus the client's own "cancelled" (the user stopped the turn). */
export type ToolStatusView = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export type ToolContentView =
  | { type: 'text'; text: string }
  | { type: 'diff'; path: string; oldText: string | null; newText: string }
  | { type: 'terminal'; terminalId: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'resource'; uri: string; text: string | null };

export interface LocationView {
  path: string;
  line: number | null;
}

export type PermissionOptionKindView = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind: PermissionOptionKindView;
  /** For an "always": how long the answer lasts ("for this session only"), shown before the click. */
  lifetime?: string;
}

/** A permission the agent is waiting for; it lives inside the tool call it is about. */
export interface PendingPermissionView {
  requestId: string;
  options: PermissionOptionView[];
}

export interface ToolCallView {
  toolCallId: string;
  title: string;
  toolKind: ToolKindView;
  status: ToolStatusView;
  content: ToolContentView[];
  locations: LocationView[];
  rawInput: string | null;
  rawOutput: string | null;
  permission: PendingPermissionView | null;
  /** Why Tandem answered this tool call's permission without asking (its own policy). */
  permissionNote?: string | null;
  /** The tool call whose subagent ran this one (Claude's Task/Agent tool): the card shows it nested there. */
  parentToolCallId?: string | null;
}

export type PlanItemStatusView = 'pending' | 'in_progress' | 'completed';

export interface PlanItemView {
  content: string;
  status: PlanItemStatusView;
  priority: 'high' | 'medium' | 'low';
}

export type StopReasonView = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled' | 'error';

export type NoticeSeverity = 'info' | 'warning' | 'error';

/** Actions a notice can offer; the host decides what each one does. */
export type NoticeAction = 'showLog' | 'restartAgent' | 'showTraffic' | 'budgetSettings';

/**
 * What the agent answered when a message was steered into its running turn (the de-facto
 * `_session/steering` extension): taken into the turn, or run as a turn of its own.
 */
export type SteerOutcomeView = 'injected' | 'startedNewTurn';

export type CompactionStatusView = 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** One context compaction (`compaction_update` / `compaction_summary_chunk`), addressed by the agent's id. */
export interface CompactionView {
  compactionId: string;
  status: CompactionStatusView;
  /** Tokens in context before and after, when known (the agent's own figures, else the usage around it). */
  tokensBefore: number | null;
  tokensAfter: number | null;
  summary: string;
  error: string | null;
}

export type ThreadEntry =
  /** `steered`: sent into a running turn rather than queued, with what the agent did with it. */
  /** `interrupted`: its turn never ended because the window reloaded (the row offers Retry). */
  | { kind: 'user'; id: string; text: string; steered?: SteerOutcomeView; interrupted?: boolean }
  /** `parentToolCallId`: a subagent's message, shown inside that tool call's card. */
  | { kind: 'agentMessage'; id: string; text: string; parentToolCallId?: string }
  | { kind: 'thought'; id: string; text: string; parentToolCallId?: string }
  | { kind: 'toolCall'; id: string; tool: ToolCallView }
  /** `stopped`: its turn was stopped, failed or cut off by a reload: no step is still under way. */
  | { kind: 'plan'; id: string; items: PlanItemView[]; stopped?: boolean }
  | { kind: 'turnEnded'; id: string; stopReason: StopReasonView; detail: string | null }
  | { kind: 'notice'; id: string; severity: NoticeSeverity; text: string; actions: NoticeAction[] }
  | { kind: 'elicitation'; id: string; elicitation: ElicitationView }
  | { kind: 'compaction'; id: string; compaction: CompactionView };

/** Small changes to the thread, in order. Text streams as appends, never as whole entries. */
export type ThreadDelta =
  | { type: 'entryAdded'; entry: ThreadEntry }
  | { type: 'entryUpdated'; entry: ThreadEntry }
  | { type: 'textAppended'; entryId: string; text: string }
  | { type: 'threadCleared' };
