/**
 * Tandem's own permission policy for an agent: the grants the user gave, the kinds answered by
 * themselves, the rules the project holds. Plain data: src/contract publishes it to the webview.
 */
import type { ToolKindView } from '../acp/toolKinds';
import type { GrantLifetime } from './grantLifetime';

/** A permission Tandem answers by itself for one agent in this workspace, because the user said "always". */
export interface PermissionGrantView {
  id: string;
  agentId: string;
  toolKind: ToolKindView;
  /** The normalized command for execute grants, the site (origin) for fetches; '' for file tools (any path inside the workspace). */
  subject: string;
  /** 'session': kept in memory for one ACP session, as the option's words said; absent: until revoked. */
  lifetime?: GrantLifetime;
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
