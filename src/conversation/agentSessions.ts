import type * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../acp/acpConnection';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import { historyCapabilities, type HistoryCapabilities, type OpenTarget } from './sessionOpening';

/** What the agent's sessions are reached through in the conversation. */
export interface SessionsConversation {
  readonly agentLabel: string;
  readonly log: Logger;
  readonly workspaceRoot: string | null;
  /** The running agent's connection and the open session on it (null before it answered with one). */
  attached(): { connection: AcpConnection; sessionId: string | null } | null;
  start(): Promise<boolean>;
  /** Why the agent is not running, as the banner says it. */
  notRunning(): string;
}

/**
 * A conversation's dealings with the agent's own sessions: what the agent can do with earlier
 * ones, which one the next start opens, and listing, deleting and closing them on its side.
 */
export class AgentSessions {
  /** What the next start opens; reset to a new session once used. */
  private target: OpenTarget = { kind: 'new' };

  constructor(private readonly conversation: SessionsConversation) {}

  /** What this agent can do with earlier sessions (known once it was started). */
  get capabilities(): HistoryCapabilities {
    const connection = this.conversation.attached()?.connection;
    return historyCapabilities(connection?.initializeResponse ?? null, connection?.rawSessionCapabilities ?? null);
  }

  get next(): OpenTarget {
    return this.target;
  }

  /** The next start opens `target` instead of a new session. */
  openNext(target: OpenTarget): void {
    this.target = target;
  }

  /** The next target was opened: the start after it opens a new session. */
  opened(): void {
    this.target = { kind: 'new' };
  }

  /** Pages through the agent's own list of sessions for this workspace (starting the agent for it). */
  async list(cursor: string | null): Promise<acp.ListSessionsResponse> {
    const ready = await this.conversation.start();
    const connection = this.conversation.attached()?.connection;
    const cwd = this.conversation.workspaceRoot;
    if (!ready || !connection || !cwd) throw new Error(this.conversation.notRunning());
    if (!this.capabilities.list) throw new Error(`${this.conversation.agentLabel} cannot list its sessions.`);
    return connection.listSessions(cwd, cursor);
  }

  async delete(sessionId: string): Promise<void> {
    const connection = this.conversation.attached()?.connection;
    if (!connection || !this.capabilities.delete) throw new Error(`${this.conversation.agentLabel} cannot delete sessions.`);
    await connection.deleteSession(sessionId);
  }

  /** Ends the open session on the agent's side, where the agent can. */
  async closeOpen(): Promise<void> {
    const attached = this.conversation.attached();
    if (!attached?.sessionId || !this.capabilities.close) return;
    await attached.connection.closeSession(attached.sessionId).catch((error: unknown) => this.conversation.log.warn(`session/close failed: ${errorMessage(error)}`));
  }
}
