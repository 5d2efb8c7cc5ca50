import * as vscode from 'vscode';
import { SETTINGS, STORAGE_KEYS } from '../../contract/ids';
import { isToolKind, type ToolKindView } from '../../contract/toolKinds';
import { PermissionPolicy, type StoredGrant } from '../permissionPolicy';
import { projectRuleFiles, readProjectRules } from '../projectRules';
import { MementoList } from './mementoList';

function isStoredGrant(grant: unknown): grant is StoredGrant {
  return Boolean(grant) && typeof (grant as StoredGrant).id === 'string';
}

/** `{ "claude-code": ["read", "search"], "*": [...] }`: the agent's own entry, else "*". */
function autoAllowKinds(agentId: string): ToolKindView[] {
  const setting = vscode.workspace.getConfiguration().get<Record<string, unknown>>(SETTINGS.autoAllow) ?? {};
  const kinds = setting[agentId] ?? setting['*'];
  return Array.isArray(kinds) ? kinds.filter(isToolKind) : [];
}

/** Tandem's permission policy, its settings, and a watch on the rules agents keep in the project. */
export function createPermissionPolicy(context: vscode.ExtensionContext, roots: () => readonly string[]): PermissionPolicy {
  const policy = new PermissionPolicy({
    workspaceRoots: () => [...roots()],
    autoAllowKinds,
    // Grants live in the editor's global storage: never inside the project, where `git clean` or a commit could not see them.
    store: new MementoList(context.globalState, STORAGE_KEYS.permissionGrants, isStoredGrant),
    projectRules: () => readProjectRules(roots()),
  });
  const watchers = projectRuleFiles.map((file) => vscode.workspace.createFileSystemWatcher(`**/${file}`));
  for (const watcher of watchers) {
    watcher.onDidChange(() => policy.refresh());
    watcher.onDidCreate(() => policy.refresh());
    watcher.onDidDelete(() => policy.refresh());
  }
  context.subscriptions.push(...watchers, policy, vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS.autoAllow)) policy.refresh();
  }));
  return policy;
}
