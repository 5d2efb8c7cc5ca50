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
  history: { role: 'user' | 'agent'; text: string }[];
}

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

/** A client whose agent_message_chunk texts are also collected, to record what the agent said. */
export function recordingClient(client: acp.AgentContext, collected: string[]): acp.AgentContext {
  const recording = Object.create(client) as acp.AgentContext;
  recording.notify = ((method: string, params?: unknown) => {
    const update = (params as { update?: { sessionUpdate?: string; content?: { type?: string; text?: string } } } | undefined)?.update;
    if (update?.sessionUpdate === 'agent_message_chunk' && update.content?.type === 'text') collected.push(update.content.text ?? '');
    return client.notify(method, params);
  }) as acp.AgentContext['notify'];
  return recording;
}
