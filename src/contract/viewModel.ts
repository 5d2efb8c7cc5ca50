/**
 * What the webview renders. Plain data shared by the host and the webview: no `vscode`,
 * no ACP SDK types, so the webview bundle stays small and the contract stays explicit.
 * The thread's entries (src/thread/entries.ts) and the connection's states
 * (src/conversation/connection.ts) are the cores' own; the contract publishes them.
 */
import type { ConnectionView, TurnView } from '../conversation/connection';
import type { PromptQueueView } from '../conversation/queuedPrompts';
import type { TerminalSnapshotView } from '../terminals/terminalStates';
import type { ThreadEntry } from '../thread/entries';
import type { ReviewView } from './reviewView';
import type { TabsView } from './sessionTabsView';

export type {
  ToolStatusView, ToolContentView, LocationView, PermissionOptionKindView, PermissionOptionView, PendingPermissionView, ToolCallView,
  PlanItemStatusView, PlanItemView, StopReasonView, NoticeSeverity, NoticeAction, ThreadEntry, ThreadDelta,
} from '../thread/entries';
export type { ConnectionPhase, ConnectionView, TurnView } from '../conversation/connection';

export interface AgentChoiceView {
  id: string;
  label: string;
  description: string;
  /** Whether its program was found on the PATH (null: not looked up yet). */
  installed: boolean | null;
}

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
