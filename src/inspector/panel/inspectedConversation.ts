import type { SessionController } from '../../conversation/sessionController';
import type { InspectedConversation } from '../inspectedConversation';
import type { PermissionPolicy } from '../../permissions/permissionPolicy';
import type { ReviewSource } from '../../review/reviewSource';

export interface InspectionSources {
  review: ReviewSource | null;
  permissionPolicy: PermissionPolicy | null;
  workspaceRoots(): readonly string[];
}

/** The conversation as the inspector sees it; null until it has opened a session with its agent. */
export function inspectedConversation(session: SessionController, sources: InspectionSources): InspectedConversation | null {
  // After the agent stopped, the session it last opened is still the one whose frames to show.
  const opened = session.newSessionResponse;
  const sessionId = session.currentSessionId ?? (opened && 'sessionId' in opened ? opened.sessionId : null);
  if (!sessionId) return null;
  const roots = sources.workspaceRoots();
  return {
    label: session.agent.label,
    sessionIds: new Set([sessionId]),
    cwd: roots[0] ?? null,
    workspaceRoots: roots,
    // The ledger holds every conversation's changes: this one's are those its tool calls made.
    files: () => (sources.review?.view().files ?? [])
      .filter((file) => file.toolCallIds.some((id) => session.thread.toolCall(id) !== undefined))
      .map((file) => ({ path: file.path, origin: file.origin, deleted: file.status === 'deleted', toolCallIds: file.toolCallIds })),
    permissions: () => {
      const view = sources.permissionPolicy?.view(session.agent.id);
      return { projectRules: view?.projectRules ?? [], tandemGrants: view?.grants ?? [] };
    },
    hasToolCall: (toolCallId) => session.thread.toolCall(toolCallId) !== undefined,
  };
}
