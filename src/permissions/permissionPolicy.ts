import { isAbsolute, relative } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionGrantView, PermissionsView, ProjectRulesView } from './grants';
import type { ToolCallView } from '../thread/entries';
import type { ToolKindView } from '../acp/toolKinds';
import { Emitter } from '../util/emitter';
import { executionControlReason, hasShellExpansion } from '../files/executionControlFiles';
import { resolveAgentPath } from '../files/pathBoundary';

/** A grant as Tandem stores it (in the editor's own storage, never inside the project). */
export interface StoredGrant extends PermissionGrantView {
  /** The workspace folder the grant is for. */
  workspace: string;
}

export interface GrantStore {
  load(): StoredGrant[];
  save(grants: StoredGrant[]): void;
}

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

/** The policy as one session's permission broker sees it. */
export interface AgentPermissionPolicy {
  decide(tool: ToolCallView, options: readonly acp.PermissionOption[]): PolicyDecision | null;
  /** The user picked `optionId`; returns the option to answer the agent with. */
  answered(tool: ToolCallView, options: readonly acp.PermissionOption[], optionId: string): string;
  /** Why this request is asked every time, whatever the user allowed before (shown in the card); null for an ordinary request. */
  alwaysAskedBecause(tool: ToolCallView): string | null;
}

/** Kinds whose permission is about files: they need paths, all inside the workspace. */
const fileKinds: ReadonlySet<ToolKindView> = new Set(['read', 'edit', 'delete', 'move', 'search']);
/** Kinds that only look: reading a file that controls what runs changes nothing. */
const lookingKinds: ReadonlySet<ToolKindView> = new Set(['read', 'search']);
const pathKeys = ['file_path', 'path', 'absolute_path', 'notebook_path', 'filePath', 'dir_path', 'directory'];

/** Every path a tool call names: its locations, its diffs and the usual path fields of its raw input. */
export function toolPaths(tool: ToolCallView): string[] {
  const paths = new Set<string>();
  for (const location of tool.locations) paths.add(location.path);
  for (const content of tool.content) if (content.type === 'diff') paths.add(content.path);
  if (tool.rawInput) {
    try {
      const input = JSON.parse(tool.rawInput) as Record<string, unknown>;
      for (const key of pathKeys) if (typeof input[key] === 'string' && input[key]) paths.add(input[key] as string);
    } catch {
      // Raw input that is not JSON names no paths.
    }
  }
  return [...paths];
}

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
      decide: (tool, offered) => this.decide(agentId, tool, offered),
      answered: (tool, offered, optionId) => this.answered(agentId, tool, offered, optionId),
      alwaysAskedBecause: (tool) => this.alwaysAskedBecause(tool),
    };
  }

  view(agentId: string): PermissionsView {
    const workspace = this.workspace();
    return {
      agentId,
      autoAllowKinds: this.options.autoAllowKinds(agentId),
      grants: this.grants.filter((grant) => grant.agentId === agentId && grant.workspace === workspace).map(({ workspace: _workspace, ...grant }) => grant),
      projectRules: this.options.projectRules?.() ?? [],
    };
  }

  revoke(grantId: string): boolean {
    const before = this.grants.length;
    this.grants = this.grants.filter((grant) => grant.id !== grantId);
    if (this.grants.length === before) return false;
    this.options.store.save(this.grants);
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

  private decide(agentId: string, tool: ToolCallView, offered: readonly acp.PermissionOption[]): PolicyDecision | null {
    const allowOnce = offered.find((option) => option.kind === 'allow_once');
    if (!allowOnce || !this.pathsAllowAutomatic(tool) || this.alwaysAskedBecause(tool)) return null;
    const grant = this.matchingGrant(agentId, tool);
    if (grant) return { optionId: allowOnce.optionId, reason: `Allowed by your rule: ${grant.description}` };
    if (this.options.autoAllowKinds(agentId).includes(tool.toolKind)) {
      return { optionId: allowOnce.optionId, reason: `Allowed automatically: ${kindLabels[tool.toolKind].toLowerCase()} inside the workspace` };
    }
    return null;
  }

  private answered(agentId: string, tool: ToolCallView, offered: readonly acp.PermissionOption[], optionId: string): string {
    const chosen = offered.find((option) => option.optionId === optionId);
    const allowOnce = offered.find((option) => option.kind === 'allow_once');
    if (chosen?.kind !== 'allow_always' || !allowOnce) return optionId;
    // Neither Tandem nor the agent may remember an "always" for a file that controls what runs.
    if (this.alwaysAskedBecause(tool)) return allowOnce.optionId;
    // Tandem keeps "always" itself, so the agent does not write a rule into the project.
    if (!this.pathsAllowAutomatic(tool)) return optionId;
    if (!this.matchingGrant(agentId, tool)) this.addGrant(agentId, tool);
    return allowOnce.optionId;
  }

  private addGrant(agentId: string, tool: ToolCallView): void {
    const fileKind = fileKinds.has(tool.toolKind);
    const subject = fileKind ? '' : tool.title;
    const description = fileKind ? `${kindLabels[tool.toolKind]} inside the workspace` : `${kindLabels[tool.toolKind]}: ${subject}`;
    const createdAt = this.options.now?.() ?? Date.now();
    this.grants.push({ id: `g${createdAt.toString(36)}${Math.random().toString(36).slice(2, 8)}`, workspace: this.workspace(), agentId, toolKind: tool.toolKind, subject, description, createdAt });
    this.options.store.save(this.grants);
    this.changeEmitter.fire(undefined);
  }

  private matchingGrant(agentId: string, tool: ToolCallView): StoredGrant | undefined {
    const workspace = this.workspace();
    return this.grants.find((grant) => grant.agentId === agentId && grant.workspace === workspace && grant.toolKind === tool.toolKind
      && (grant.subject === '' ? fileKinds.has(tool.toolKind) : grant.subject === tool.title));
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
