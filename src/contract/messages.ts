import { z } from 'zod';
import type { AgentChoiceView, ConnectionView, PanelState, ThreadDelta, TurnView } from './viewModel';
import { reviewActions, type ReviewView } from './reviewView';
import { terminalActions, type TerminalOutputView, type TerminalStateView } from './terminalView';
import { queueActions, type ConversationView, type MentionView, type PermissionsView, type PromptQueueView } from './conversationView';
import { conversationMessageSchemas, promptContextFields } from './conversationMessages';
import { reviewMessageSchemas } from './reviewMessages';
import { sessionMessageSchemas } from './sessionMessages';
import { checkpointMessageSchemas, type CheckpointHostMessage } from './checkpointView';
import type { HistoryView, TabsView } from './sessionTabsView';

/** Host -> webview. Each `type` carries exactly its payload. */
export type HostToWebview =
  | { type: 'snapshot'; state: PanelState }
  | { type: 'threadDeltas'; deltas: ThreadDelta[] }
  | { type: 'connectionChanged'; connection: ConnectionView }
  | { type: 'turnChanged'; turn: TurnView }
  /** Messages waiting for the running turn to end (the active conversation's). */
  | { type: 'queueChanged'; queue: PromptQueueView }
  | { type: 'agentsChanged'; agents: AgentChoiceView[]; selectedAgentId: string }
  | { type: 'reviewChanged'; review: ReviewView }
  /** Terminal states that changed and new output since the last message, batched and bounded. */
  | { type: 'terminalDeltas'; changed: TerminalStateView[]; output: TerminalOutputView[] }
  /** Pickers, usage meter, slash commands and prompt support of the current session. */
  | { type: 'conversationChanged'; conversation: ConversationView }
  | { type: 'permissionsChanged'; permissions: PermissionsView }
  /** The answer to the webview's `requestMentions` with the same id. */
  | { type: 'mentionCandidates'; requestId: number; items: MentionView[] }
  /** Open conversations changed (added, closed, switched, busy, waiting, renamed). */
  | { type: 'tabsChanged'; tabs: TabsView }
  | { type: 'historyChanged'; history: HistoryView }
  /** "Show in thread" from the frame inspector: bring this tool call's card into view. */
  | { type: 'revealToolCall'; toolCallId: string }
  | CheckpointHostMessage;

export const panelActions = ['showLog', 'showTraffic', 'restartAgent', 'newSession', 'budgetSettings'] as const;
export type PanelAction = (typeof panelActions)[number];

/**
 * Webview -> host. Validated at the boundary: the webview renders agent-controlled text, so
 * the host never trusts the shape of what comes back.
 */
const webviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The webview applied this many `threadDeltas` batches: the host sends the next one (flow control). */
  z.object({ type: z.literal('threadDeltasApplied'), batches: z.number().int().min(1).max(1_000_000) }),
  z.object({ type: z.literal('sendPrompt'), text: z.string().min(1).max(1_000_000), ...promptContextFields }),
  z.object({ type: z.literal('cancelTurn') }),
  /** "Retry" on a message a window reload cut off: it is sent again. */
  z.object({ type: z.literal('retryMessage'), entryId: z.string().min(1).max(100) }),
  z.object({ type: z.literal('queueAction'), action: z.enum(queueActions), id: z.string().min(1).max(100) }),
  z.object({ type: z.literal('selectAgent'), agentId: z.string().min(1).max(200) }),
  z.object({
    type: z.literal('answerPermission'),
    requestId: z.string().min(1).max(200),
    optionId: z.string().min(1).max(500).nullable(),
  }),
  z.object({ type: z.literal('runAction'), action: z.enum(panelActions) }),
  z.object({ type: z.literal('openLink'), href: z.string().min(1).max(8192) }),
  z.object({
    type: z.literal('reviewAction'),
    action: z.enum(reviewActions),
    path: z.string().min(1).max(4096).nullable(),
    hunkId: z.string().min(1).max(200).nullable(),
  }),
  z.object({ type: z.literal('terminalAction'), terminalId: z.string().min(1).max(200), action: z.enum(terminalActions) }),
  z.object({ type: z.literal('signIn'), methodId: z.string().min(1).max(200) }),
  /** A card's "Show frames": the frame inspector, filtered to this tool call. */
  z.object({ type: z.literal('showFrames'), toolCallId: z.string().min(1).max(500) }),
  ...conversationMessageSchemas,
  ...sessionMessageSchemas,
  ...reviewMessageSchemas,
  ...checkpointMessageSchemas,
]);

export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

export type ParsedWebviewMessage =
  | { ok: true; message: WebviewToHost }
  | { ok: false; error: string };

export function parseWebviewMessage(raw: unknown): ParsedWebviewMessage {
  const result = webviewToHostSchema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  return { ok: false, error: result.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ') };
}
