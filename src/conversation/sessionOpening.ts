import type * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection, SessionMeta } from '../acp/acpConnection';
import type { ThreadModel } from '../thread/threadModel';

/** How a session is opened: a new one, or an earlier one by load (replayed) or resume (not replayed). */
export type OpenTarget =
  | { kind: 'new' }
  | { kind: 'load'; sessionId: string }
  | { kind: 'resume'; sessionId: string }
  /** A new session starting from a copy of an earlier one's history (unstable `session/fork`). */
  | { kind: 'fork'; sessionId: string }
  /** Continue a session whose transcript Tandem kept: resume if the agent can, else load, else new. */
  | { kind: 'continue'; sessionId: string };

/** What `continue` becomes for an agent with these capabilities. */
export function resolveContinue(target: OpenTarget, capabilities: HistoryCapabilities): Exclude<OpenTarget, { kind: 'continue' }> {
  if (target.kind !== 'continue') return target;
  if (capabilities.resume) return { kind: 'resume', sessionId: target.sessionId };
  if (capabilities.load) return { kind: 'load', sessionId: target.sessionId };
  return { kind: 'new' };
}

export interface OpenedSession {
  sessionId: string;
  modes: acp.SessionModeState | null;
  configOptions: acp.SessionConfigOption[] | null;
  /** The raw answer, for agent-specific fields (Gemini's legacy `models`). */
  response: acp.NewSessionResponse | acp.LoadSessionResponse | acp.ResumeSessionResponse;
}

/** What an agent can do with earlier sessions, from its `initialize` answer. */
export interface HistoryCapabilities {
  list: boolean;
  load: boolean;
  resume: boolean;
  close: boolean;
  delete: boolean;
  fork: boolean;
}

export function historyCapabilities(init: acp.InitializeResponse | null, rawSession: Record<string, unknown> | null = null): HistoryCapabilities {
  const caps = init?.agentCapabilities;
  return {
    list: Boolean(caps?.sessionCapabilities?.list),
    load: Boolean(caps?.loadSession),
    resume: Boolean(caps?.sessionCapabilities?.resume),
    close: Boolean(caps?.sessionCapabilities?.close),
    delete: Boolean(caps?.sessionCapabilities?.delete),
    fork: Boolean(rawSession?.fork),
  };
}

export async function openSession(connection: AcpConnection, target: Exclude<OpenTarget, { kind: 'continue' }>, cwd: string, mcpServers: acp.McpServer[], meta?: SessionMeta): Promise<OpenedSession> {
  switch (target.kind) {
    case 'new': {
      const response = await connection.newSession(cwd, mcpServers, meta);
      return { sessionId: response.sessionId, modes: response.modes ?? null, configOptions: response.configOptions ?? null, response };
    }
    case 'load': {
      const response = (await connection.loadSession(target.sessionId, cwd, mcpServers, meta)) ?? {};
      return { sessionId: target.sessionId, modes: response.modes ?? null, configOptions: response.configOptions ?? null, response };
    }
    case 'fork': {
      const response = await connection.forkSession(target.sessionId, cwd, mcpServers, meta);
      return { sessionId: response.sessionId, modes: response.modes ?? null, configOptions: response.configOptions ?? null, response };
    }
    case 'resume': {
      const response = await connection.resumeSession(target.sessionId, cwd, mcpServers, meta);
      return { sessionId: target.sessionId, modes: response.modes ?? null, configOptions: response.configOptions ?? null, response };
    }
  }
}

/** How continuing a kept transcript turned out, said in the thread. */
export function noteContinuation(thread: ThreadModel, agentLabel: string, target: OpenTarget): void {
  if (target.kind === 'load') {
    // The agent replays the whole session: it replaces the transcript Tandem kept.
    thread.clear();
  } else if (target.kind === 'new') {
    thread.addNotice('warning', `${agentLabel} cannot continue earlier sessions, so this is a new session: the agent has not seen the messages above.`);
  }
}
