/**
 * The conversation's controls as the panel shows them: config pickers, the usage meter, slash
 * commands, what the prompt may carry, and Tandem's own permission policy. Plain data shared by
 * the host and the webview; the pickers, the prompt's parts and queue, and the policy are the
 * cores' (src/conversation, src/permissions), which the contract publishes.
 */
import type { BudgetWarning } from '../usage/budget';
import type { ConfigControlView } from '../conversation/configControls';
import type { PermissionsView } from '../permissions/grants';
import type { RateLimitView } from '../usage/rateLimits';

export type { ConfigSourceView, ConfigChoiceView, ConfigControlView } from '../conversation/configControls';
export {
  mentionKinds, promptImageTypes, type MentionKind, type MentionView, type PromptImageView, type QueuedPromptView, type PromptQueueView,
} from '../conversation/queuedPrompts';
export type { PermissionGrantView, ProjectRulesView, PermissionsView } from '../permissions/grants';
export type { BudgetWarning } from '../usage/budget';

export type UsageLevelView = 'normal' | 'warning' | 'full';

export type UsageView =
  /** From `usage_update`: how full the context window is. */
  | { kind: 'context'; used: number; size: number; percent: number; level: UsageLevelView; cost: { amount: number; currency: string } | null }
  /** From the prompt response only: tokens of the last turn; there is no window size to compare with. */
  | { kind: 'turn'; inputTokens: number | null; outputTokens: number | null; totalTokens: number | null };

export interface CommandView {
  name: string;
  description: string;
  /** Shown as the hint after the command when the command takes input. */
  inputHint: string | null;
}

export interface PromptSupportView {
  image: boolean;
  embeddedContext: boolean;
}

export interface ConversationView {
  controls: ConfigControlView[];
  usage: UsageView | null;
  commands: CommandView[];
  /**
   * Where `commands` come from when not from the running agent: `lastRun`, the list it sent when
   * it last ran here (its session is not up yet); `notStarted`, none known until it starts.
   * Absent: the agent's own list (possibly empty).
   */
  commandsFrom?: 'lastRun' | 'notStarted';
  prompt: PromptSupportView;
  followAgent: boolean;
  /** The plan limits the agent reported (none: the agent reports none, nothing is shown). */
  rateLimits?: RateLimitView[];
  /** A budget of the user's near or at its limit (tandem.budget.*); absent within every limit. */
  budget?: BudgetWarning;
}

export const emptyConversation: ConversationView = {
  controls: [], usage: null, commands: [], prompt: { image: false, embeddedContext: false }, followAgent: false,
};

export const queueActions = ['edit', 'remove', 'sendNow', 'steer'] as const;
export type QueueAction = (typeof queueActions)[number];

export const emptyPermissions: PermissionsView = { agentId: '', autoAllowKinds: [], grants: [], projectRules: [] };
