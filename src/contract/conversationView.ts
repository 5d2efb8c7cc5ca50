/**
 * The conversation's controls as the panel shows them: config pickers, the usage meter, slash
 * commands, what the prompt may carry, and Tandem's own permission policy. Plain data shared by
 * the host and the webview.
 */
import type { ToolKindView } from './toolKinds';
import type { RateLimitView } from './agentExtrasView';

/** Where a picker's value goes: `session/set_config_option`, legacy `session/set_mode` or `session/set_model`. */
export type ConfigSourceView = 'config' | 'mode' | 'model';

export interface ConfigChoiceView {
  value: string;
  name: string;
  description: string | null;
  /** Heading of the group the choice belongs to, for grouped selects. */
  group: string | null;
}

interface ConfigControlBase {
  id: string;
  name: string;
  description: string | null;
  /** The agent's category (`mode`, `model`, `thought_level`, ...): it decides the picker's place. */
  category: string | null;
  source: ConfigSourceView;
  /** A change was sent and the agent has not answered yet (the value shown is the optimistic one). */
  pending: boolean;
}

export type ConfigControlView =
  | (ConfigControlBase & { kind: 'select'; currentValue: string; choices: ConfigChoiceView[] })
  | (ConfigControlBase & { kind: 'boolean'; currentValue: boolean });

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
  prompt: PromptSupportView;
  followAgent: boolean;
  /** The plan limits the agent reported (none: the agent reports none, nothing is shown). */
  rateLimits?: RateLimitView[];
}

export const emptyConversation: ConversationView = {
  controls: [], usage: null, commands: [], prompt: { image: false, embeddedContext: false }, followAgent: false,
};

export const mentionKinds = ['file', 'folder', 'selection'] as const;
export type MentionKind = (typeof mentionKinds)[number];

/** Something `@` can attach to a prompt. */
export interface MentionView {
  kind: MentionKind;
  /** What the composer shows after `@`. */
  label: string;
  /** Absolute path. */
  path: string;
  /** Relative path or the selection's lines, for the completion list. */
  detail: string;
  /** 1-based lines of a selection. */
  startLine: number | null;
  endLine: number | null;
  /** The file is open in an editor (shown first). */
  open: boolean;
}

export const promptImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export interface PromptImageView {
  mimeType: (typeof promptImageTypes)[number];
  /** Base64 without the data: prefix. */
  data: string;
}

/** A message typed while a turn ran; the host sends it when the agent is done, panel shown or not. */
export interface QueuedPromptView {
  id: string;
  text: string;
  mentions: MentionView[];
  images: PromptImageView[];
}

export interface PromptQueueView {
  items: QueuedPromptView[];
  /** The user stopped the agent (or it stopped working): nothing goes out until they send again or pick Send now. */
  paused: boolean;
  /** A turn runs and the agent takes messages into it (`_session/steering`): each queued one can be steered. */
  steerable?: boolean;
}

export const queueActions = ['edit', 'remove', 'sendNow', 'steer'] as const;
export type QueueAction = (typeof queueActions)[number];

/** A permission Tandem answers by itself for one agent in this workspace, because the user said "always". */
export interface PermissionGrantView {
  id: string;
  agentId: string;
  toolKind: ToolKindView;
  /** The command for execute grants; '' for file tools (any path inside the workspace). */
  subject: string;
  description: string;
  createdAt: number;
}

/** "Always allow" rules an agent stored inside the project itself (e.g. Claude Code's settings.local.json). */
export interface ProjectRulesView {
  path: string;
  label: string;
  allow: string[];
  deny: string[];
}

export interface PermissionsView {
  agentId: string;
  /** Tool kinds answered "allow" without asking, for paths inside the workspace only. */
  autoAllowKinds: ToolKindView[];
  grants: PermissionGrantView[];
  projectRules: ProjectRulesView[];
}

export const emptyPermissions: PermissionsView = { agentId: '', autoAllowKinds: [], grants: [], projectRules: [] };
