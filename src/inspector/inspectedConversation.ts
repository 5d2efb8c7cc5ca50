import type { PermissionGrantView, ProjectRulesView } from '../permissions/grants';
import type { LedgerFile } from './fidelityReport';

/** What the inspector, the report and recordings need of one conversation, beyond the window's frames. */
export interface InspectedConversation {
  /** The agent's name as the user knows it. */
  label: string;
  /** The conversation's sessions on the agent: their frames are its frames. */
  sessionIds: ReadonlySet<string>;
  /** The session's folder. */
  cwd: string | null;
  workspaceRoots: readonly string[];
  /** The review ledger's files this conversation changed. */
  files(): readonly LedgerFile[];
  permissions(): { projectRules: readonly ProjectRulesView[]; tandemGrants: readonly PermissionGrantView[] };
  /** The thread shows this tool call's card ("Show in thread" can go there). */
  hasToolCall(toolCallId: string): boolean;
}
