import type { TerminalDisplays, TerminalMirrorHandle } from '../terminals/terminalDisplays';
import type { ConversationEditor } from './conversationFeature';
import type { WorkspaceUse } from './workspaceUse';

/** What only the editor can do for the panel. */
export interface EditorActions {
  showLog(): void;
  showTraffic(): void;
  openLink(href: string): void;
  rememberAgent(agentId: string): void;
  /** Mirrors the session's terminals in the editor's terminal panel, until disposed. */
  mirrorTerminals?(displays: TerminalDisplays): TerminalMirrorHandle;
  /** Mentions, clipboard, "follow the agent" and the status bar meter. */
  conversation?: ConversationEditor;
  /**
   * Whether the user used Tandem in this workspace, kept in the editor's storage. A panel
   * without such storage has no workspace to guard: every workspace counts as used.
   */
  workspaceUse?: WorkspaceUse;
  /** A card's "Show frames": the frame inspector filtered to that tool call. */
  showFrames?(toolCallId: string): void;
  /** The editor's settings, searched for `query` (a budget's stop offers its settings). */
  openSettings?(query: string): void;
}

/** Without the editor's storage every workspace counts as used (see `EditorActions.workspaceUse`). */
export const everywhereUsed: WorkspaceUse = { used: true, markUsed: () => undefined };
