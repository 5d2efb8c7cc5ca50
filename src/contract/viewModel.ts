/**
 * What the webview renders. Plain data shared by the host and the webview: no `vscode`,
 * no ACP SDK types, so the webview bundle stays small and the contract stays explicit.
 */

import type { ToolKindView } from './toolKinds';

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
export type NoticeAction = 'showLog' | 'restartAgent' | 'showTraffic';

export type ThreadEntry =
  /** `steered`: sent into a running turn rather than queued, with what the agent did with it. */
  | { kind: 'user'; id: string; text: string; steered?: SteerOutcomeView }
  /** `parentToolCallId`: a subagent's message, shown inside that tool call's card. */
  | { kind: 'agentMessage'; id: string; text: string; parentToolCallId?: string }
  | { kind: 'thought'; id: string; text: string; parentToolCallId?: string }
  | { kind: 'toolCall'; id: string; tool: ToolCallView }
  | { kind: 'plan'; id: string; items: PlanItemView[] }
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

export type ConnectionPhase =
  | 'idle'          // no agent started yet
  | 'starting'      // spawning, initialize, session/new
  | 'ready'         // session open
  | 'exited'        // the agent process ended (crash or exit)
  | 'failed'        // could not start (not installed, handshake error)
  | 'restricted'    // Restricted Mode: agents are not spawned
  | 'signInRequired'; // the agent answered "authentication required": sign-in methods are offered

export interface ConnectionView {
  phase: ConnectionPhase;
  /** One clear sentence for the user when something is wrong or going on. */
  message: string | null;
  agentName: string | null;
  /** With phase `signInRequired`: the ways to sign in the agent offers. */
  signIn?: SignInMethodView[];
  /** While starting, and when a start or the agent failed: the stages, the log tail and a report. */
  startup?: StartupView;
}

export interface AgentChoiceView {
  id: string;
  label: string;
  description: string;
}

export interface TurnView {
  running: boolean;
}

import type { ReviewView } from './reviewView';
import type { ElicitationView } from './elicitationView';
import type { TabsView } from './sessionTabsView';
import type { PromptQueueView } from './conversationView';
import type { SignInMethodView, TerminalSnapshotView } from './terminalView';
import type { CompactionView, SteerOutcomeView } from './agentExtrasView';
import type { StartupView } from './startupView';

export interface PanelState {
  agents: AgentChoiceView[];
  selectedAgentId: string;
  connection: ConnectionView;
  turn: TurnView;
  queue: PromptQueueView;
  sessionTitle: string | null;
  entries: ThreadEntry[];
  review: ReviewView;
  terminals: TerminalSnapshotView[];
  tabs: TabsView;
  /** The folder the sessions work in (their cwd): cards name files inside it relatively. */
  workspaceRoot: string | null;
}
