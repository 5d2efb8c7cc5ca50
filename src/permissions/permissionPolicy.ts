import { isAbsolute, relative } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionGrantView, PermissionsView, ProjectRulesView } from './grants';
import type { ToolCallView } from '../thread/entries';
import type { ToolKindView } from '../acp/toolKinds';
import { Emitter } from '../util/emitter';
import { executionControlReason, hasShellExpansion } from '../files/executionControlFiles';
import { resolveAgentPath } from '../files/pathBoundary';
import { grantLifetime, lifetimeLabel } from './grantLifetime';
import { grantSubject } from './grantSubjects';
import { toolPaths } from './toolPaths';
import type { RecordStore } from './recordStore';

/** A grant as Tandem stores it (in the editor's own storage, never inside the project). */
export interface StoredGrant extends PermissionGrantView {
  /** The workspace folder the grant is for. */
  workspace: string;
  /** The ACP session a session-long grant belongs to; such a grant is never stored. */
  sessionId?: string;
}

export type GrantStore = RecordStore<StoredGrant>;

export class MemoryGrantStore implements GrantStore {
  constructor(private grants: StoredGrant[] = []) {}
  load(): StoredGrant[] {
    return this.grants.map((grant) => ({ ...grant }));
  }
  save(grants: StoredGrant[]): void {
    this.grants = grants.map((grant) => ({ ...grant }));
  }
}

export interface PermissionPolicyOptions {
  workspaceRoots(): string[];
  /** Tool kinds the user lets an agent use without asking (inside the workspace). */
  autoAllowKinds(agentId: string): ToolKindView[];
  store: GrantStore;
  /** Rules agents keep inside the project; shown, never applied by Tandem. */
  projectRules?(): ProjectRulesView[];
  now?(): number;
}

/** What Tandem decided without asking: the option to select and why (shown in the card). */
export interface PolicyDecision {
  optionId: string;
  reason: string;
}

/** The policy as one session's permission broker sees it; `sessionId` is the request's ACP session. */
export interface AgentPermissionPolicy {
  decide(tool: ToolCallView, options: readonly acp.PermissionOption[], sessionId: string): PolicyDecision | null;
  /** The user picked `optionId`; returns the option to answer the agent with. */
  answered(tool: ToolCallView, options: readonly acp.PermissionOption[], optionId: string, sessionId: string): string;
  /** How long choosing `option` lasts, as the card says it before the click; null for options that are not an "always". */
  lifetimeOf(tool: ToolCallView, options: readonly acp.PermissionOption[], option: acp.PermissionOption): string | null;
  /** Why this request is asked every time, whatever the user allowed before (shown in the card); null for an ordinary request. */
  alwaysAskedBecause(tool: ToolCallView): string | null;
}

/** Kinds whose permission is about files: they need paths, all inside the workspace. */
const fileKinds: ReadonlySet<ToolKindView> = new Set(['read', 'edit', 'delete', 'move', 'search']);
/** Kinds that only look: reading a file that controls what runs changes nothing. */
const lookingKinds: ReadonlySet<ToolKindView> = new Set(['read', 'search']);
/** Relative to the workspace folder that holds it, as the user knows it. */
function shownPath(path: string, roots: readonly string[]): string {
  for (const root of roots) {
    const rel = relative(root, path);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  return path;
}

const kindLabels: Record<ToolKindView, string> = {
  read: 'Reads', edit: 'Edits', delete: 'Deletions', move: 'Moves', search: 'Searches', execute: 'Commands',
  think: 'Thinking steps', fetch: 'Fetches', switch_mode: 'Mode switches', other: 'Other tools',
};

/**
 * Tandem's own permission policy on top of the agent's: per agent, auto-allow by tool kind,
 * and "always" grants the user gave, kept by Tandem and revocable. Nothing is ever allowed
 * automatically for a path outside the workspace, or for a file tool that names no path.
 */
export class PermissionPolicy {
  private grants: StoredGrant[];
  private readonly changeEmitter = new Emitter<void>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly options: PermissionPolicyOptions) {
    this.grants = options.store.load();
  }

  forAgent(agentId: string): AgentPermissionPolicy {
    return {
      decide: (tool, offered, sessionId) => this.decide(agentId, tool, offered, sessionId),
      answered: (tool, offered, optionId, sessionId) => this.answered(agentId, tool, offered, optionId, sessionId),
      lifetimeOf: (tool, offered, option) => lifetimeLabel(option, this.keeper(tool, offered)),
      alwaysAskedBecause: (tool) => this.alwaysAskedBecause(tool),
    };
  }

  view(agentId: string): PermissionsView {
    const workspace = this.workspace();
    return {
      agentId,
      autoAllowKinds: this.options.autoAllowKinds(agentId),
      grants: this.grants.filter((grant) => grant.agentId === agentId && grant.workspace === workspace).map(({ workspace: _workspace, sessionId: _sessionId, ...grant }) => grant),
      projectRules: this.options.projectRules?.() ?? [],
    };
  }

  revoke(grantId: string): boolean {
    const before = this.grants.length;
    this.grants = this.grants.filter((grant) => grant.id !== grantId);
    if (this.grants.length === before) return false;
    this.save();
    this.changeEmitter.fire(undefined);
    return true;
  }

  /** Settings or project rules changed: views must be rebuilt. */
  refresh(): void {
    this.changeEmitter.fire(undefined);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private decide(agentId: string, tool: ToolCallView, offered: readonly acp.PermissionOption[], sessionId: string): PolicyDecision | null {
    const allowOnce = offered.find((option) => option.kind === 'allow_once');
    if (!allowOnce || !this.pathsAllowAutomatic(tool) || this.alwaysAskedBecause(tool)) return null;
    const grant = this.matchingGrant(agentId, tool, sessionId);
    if (grant) return { optionId: allowOnce.optionId, reason: `Allowed by your rule: ${grant.description}` };
    if (this.options.autoAllowKinds(agentId).includes(tool.toolKind)) {
      return { optionId: allowOnce.optionId, reason: `Allowed automatically: ${kindLabels[tool.toolKind].toLowerCase()} inside the workspace` };
    }
    return null;
  }

  private answered(agentId: string, tool: ToolCallView, offered: readonly acp.PermissionOption[], optionId: string, sessionId: string): string {
    const chosen = offered.find((option) => option.optionId === optionId);
    const lifetime = chosen ? grantLifetime(chosen) : null;
    const allowOnce = offered.find((option) => option.kind === 'allow_once');
    if (lifetime === null || !allowOnce) return optionId;
    const keeper = this.keeper(tool, offered);
    if (keeper === 'agent') return optionId;
    // Tandem keeps "always" itself, so the agent does not write a rule into the project; what
    // nobody may keep (a file that controls what runs, a command it cannot tell) is answered once.
    const subject = grantSubject(tool, fileKinds.has(tool.toolKind));
    const grantSession = lifetime === 'session' ? sessionId : undefined;
    if (keeper === 'tandem' && subject !== null && !this.matchingGrant(agentId, tool, sessionId, grantSession ?? null)) this.addGrant(agentId, tool, subject, grantSession);
    return allowOnce.optionId;
  }

  /** Who remembers an "always" for this call: Tandem, the agent (outside what Tandem covers), or nobody. */
  private keeper(tool: ToolCallView, offered: readonly acp.PermissionOption[]): 'tandem' | 'agent' | 'nobody' {
    if (!offered.some((option) => option.kind === 'allow_once')) return 'agent';
    if (this.alwaysAskedBecause(tool)) return 'nobody';
    if (!this.pathsAllowAutomatic(tool)) return 'agent';
    return grantSubject(tool, fileKinds.has(tool.toolKind)) === null ? 'nobody' : 'tandem';
  }

  private addGrant(agentId: string, tool: ToolCallView, subject: string, sessionId: string | undefined): void {
    const label = kindLabels[tool.toolKind];
    const covered = subject === '' ? `${label} inside the workspace` : `${label}: ${subject}`;
    const description = sessionId === undefined ? covered : `${covered}, for this session only`;
    const createdAt = this.options.now?.() ?? Date.now();
    const id = `g${createdAt.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    this.grants.push({ id, workspace: this.workspace(), agentId, toolKind: tool.toolKind, subject, description, createdAt, ...(sessionId === undefined ? {} : { sessionId, lifetime: 'session' as const }) });
    this.save();
    this.changeEmitter.fire(undefined);
  }

  /**
   * The grant covering this call in `sessionId`: standing ones and that session's own. With
   * `onlySession` given, only grants of exactly that scope (null: standing) count.
   */
  private matchingGrant(agentId: string, tool: ToolCallView, sessionId: string, onlySession?: string | null): StoredGrant | undefined {
    const workspace = this.workspace();
    const subject = grantSubject(tool, fileKinds.has(tool.toolKind));
    if (subject === null) return undefined;
    return this.grants.find((grant) => grant.agentId === agentId && grant.workspace === workspace && grant.toolKind === tool.toolKind && grant.subject === subject
      && (onlySession === undefined ? grant.sessionId === undefined || grant.sessionId === sessionId : (grant.sessionId ?? null) === onlySession));
  }

  /** Session-long grants live in memory only: a new session, or the editor restarted, asks again. */
  private save(): void {
    this.options.store.save(this.grants.filter((grant) => grant.sessionId === undefined));
  }

  private pathsAllowAutomatic(tool: ToolCallView): boolean {
    const paths = toolPaths(tool);
    if (fileKinds.has(tool.toolKind) && paths.length === 0) return false;
    const roots = this.options.workspaceRoots();
    // Symlinks are resolved: a link inside the workspace that points out of it is outside. A path
    // the agent's shell would expand (`~/x`, `$HOME/x`) is wherever it expands to: not inside.
    return roots.length > 0 && paths.every((path) => !hasShellExpansion(path) && resolveAgentPath(path, roots[0] ?? '/', roots).inside);
  }

  private alwaysAskedBecause(tool: ToolCallView): string | null {
    if (lookingKinds.has(tool.toolKind)) return null;
    const roots = this.options.workspaceRoots();
    for (const path of toolPaths(tool)) {
      const reason = executionControlReason(path, roots);
      if (reason) return `${shownPath(path, roots)} controls what runs (${reason}): asked every time.`;
    }
    return null;
  }

  private workspace(): string {
    return this.options.workspaceRoots()[0] ?? '';
  }
}
