import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';

/**
 * The scripted agent's record of its sessions, kept in the workspace (a test's temp folder) so a
 * restarted agent can list, load and resume what an earlier process did, as real agents do.
 */
export interface StoredSession {
  sessionId: string;
  cwd: string;
  title: string;
  updatedAt: string;
  mcpServers: acp.McpServer[];
  history: HistoryEntry[];
}

/** What a load replays: the user's and the agent's words, and each tool call as it ended. */
export type HistoryEntry = { role: 'user' | 'agent'; text: string } | { role: 'tool'; call: acp.ToolCall };

function storeFile(cwd: string): string {
  return join(cwd, '.scripted-agent-sessions.json');
}

export function readSessions(cwd: string): StoredSession[] {
  const file = storeFile(cwd);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StoredSession[]) : [];
}

export function saveSession(session: StoredSession): void {
  const others = readSessions(session.cwd).filter((candidate) => candidate.sessionId !== session.sessionId);
  writeFileSync(storeFile(session.cwd), JSON.stringify([...others, session], null, 2));
}

export function deleteStoredSession(cwd: string, sessionId: string): boolean {
  const sessions = readSessions(cwd);
  const kept = sessions.filter((candidate) => candidate.sessionId !== sessionId);
  writeFileSync(storeFile(cwd), JSON.stringify(kept, null, 2));
  return kept.length < sessions.length;
}

/** What a turn said, collected by `recordingClient` for the session's history. */
export interface TurnRecord {
  /** agent_message_chunk texts. */
  said: string[];
  /** Each tool call with every later update of it folded in, in the order they started. */
  tools: Map<string, acp.ToolCall>;
}

export function turnRecord(): TurnRecord {
  return { said: [], tools: new Map() };
}

/** A client whose messages and tool calls are also collected, to record what the agent did. */
export function recordingClient(client: acp.AgentContext, record: TurnRecord): acp.AgentContext {
  const recording = Object.create(client) as acp.AgentContext;
  recording.notify = ((method: string, params?: unknown) => {
    const update = (params as { update?: acp.SessionUpdate } | undefined)?.update;
    if (update?.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') record.said.push(update.content.text);
    if (update?.sessionUpdate === 'tool_call' || update?.sessionUpdate === 'tool_call_update') {
      const { sessionUpdate: _kind, ...fields } = update;
      const known = record.tools.get(update.toolCallId);
      record.tools.set(update.toolCallId, { ...known, ...fields, title: fields.title ?? known?.title ?? '' } as acp.ToolCall);
    }
    return client.notify(method, params);
  }) as acp.AgentContext['notify'];
  return recording;
}
