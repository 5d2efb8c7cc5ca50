import type * as acp from '@agentclientprotocol/sdk';
import type { ThreadDelta, ToolCallView } from '../thread/entries';
import type { Disposable } from '../util/disposable';
import type { Logger } from '../util/logger';
import type { TerminalDisplays } from '../terminals/terminalDisplays';

/**
 * What a session's file service needs to know of its session. A conversation's own context
 * satisfies it as it is; the services never depend on the conversation layer.
 */
export interface FsSessionContext {
  /** The session that made a change, so notes on undone changes reach that session only. */
  key: string;
  cwd: string;
  thread: {
    /** Where to find the edit tool call a write most likely belongs to. */
    findLastToolCall(matches: (tool: ToolCallView) => boolean): ToolCallView | undefined;
    /** Tells the user, in the conversation, of an agent change that could not be put up for review. */
    addNotice(severity: 'warning', text: string): void;
    /**
     * The thread's changes: a user message added is a turn about to start, when the files are
     * read as the agent's turn finds them. Without it they are read once, as the session starts.
     */
    onDelta?(listener: (delta: ThreadDelta) => void): Disposable;
  };
  logger: Logger;
  /** Every `session/update` of the session, after its thread applied it. */
  onUpdate(listener: (update: acp.SessionUpdate) => void): Disposable;
  /**
   * The tool call of each permission request, before it is answered: some agents (OpenCode) name
   * the file a call will change, and send its diff, only there.
   */
  onPermissionRequest(listener: (toolCall: acp.ToolCallUpdate) => void): Disposable;
  /** Who the agent said it is in `initialize` (null until then). */
  agentInfo(): acp.Implementation | null;
  /**
   * Whether the agent works on a prompt: its turn runs, or the agent has not answered it (Stop
   * ended the turn here, and it went on). Otherwise its tool calls are history (a loaded session's
   * replay): they are not watched for changes to the disk. Without it, every call is.
   */
  promptUnderWay?(): boolean;
}

/** What a session's editor services get to work with: its files' context and the terminals the user sees. */
export interface SessionContext extends FsSessionContext {
  /** The session's terminals as the user sees them; a command service feeds its own in. */
  terminalDisplays: TerminalDisplays;
  promptUnderWay(): boolean;
}
