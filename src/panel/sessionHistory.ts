import type { AgentDefinition } from '../agents/agentConfig';
import type { HistoryItemView, HistoryView } from '../contract/sessionTabsView';
import { errorMessage } from '../util/logger';
import type { SessionController } from '../conversation/sessionController';
import type { TranscriptRecord } from './transcripts';

const MAX_AGENT_PAGES = 5;

/**
 * The history list: conversations Tandem kept (closed tabs) and sessions the active agent can
 * list itself. Keys say where an item came from, so opening it does the right thing.
 */
export async function buildHistory(closed: readonly TranscriptRecord[], agents: readonly AgentDefinition[], active: SessionController): Promise<HistoryView> {
  const label = (agentId: string) => agents.find((agent) => agent.id === agentId)?.label ?? agentId;
  const items: HistoryItemView[] = closed.map((record) => ({
    key: `tandem:${record.tabId}`,
    source: 'tandem',
    agentId: record.agentId,
    agentLabel: label(record.agentId),
    sessionId: record.sessionId,
    title: record.title,
    updatedAt: record.updatedAt,
  }));
  const notes: string[] = [];
  const known = new Set(closed.map((record) => record.sessionId).filter(Boolean));
  try {
    if (active.connectionView.phase !== 'ready') notes.push(`${active.agent.label} is not running, so its own session list is not shown.`);
    else if (!active.history.list) notes.push(`${active.agent.label} cannot list its sessions; only conversations Tandem kept are shown.`);
    else {
      let cursor: string | null = null;
      for (let page = 0; page < MAX_AGENT_PAGES; page++) {
        const response = await active.listAgentSessions(cursor);
        for (const session of response.sessions) {
          if (known.has(session.sessionId) || session.sessionId === active.currentSessionId) continue;
          items.push({
            key: `agent:${active.agent.id}:${session.sessionId}`,
            source: 'agent',
            agentId: active.agent.id,
            agentLabel: active.agent.label,
            sessionId: session.sessionId,
            title: session.title || 'Untitled session',
            updatedAt: session.updatedAt ?? null,
          });
        }
        cursor = response.nextCursor ?? null;
        if (!cursor) break;
      }
    }
  } catch (error) {
    notes.push(`${active.agent.label}'s session list could not be read: ${errorMessage(error)}`);
  }
  items.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
  return { items, notes };
}

export function parseHistoryKey(key: string): { source: 'tandem'; tabId: string } | { source: 'agent'; agentId: string; sessionId: string } | null {
  if (key.startsWith('tandem:')) return { source: 'tandem', tabId: key.slice('tandem:'.length) };
  const match = /^agent:([^:]+):(.+)$/.exec(key);
  return match ? { source: 'agent', agentId: match[1] as string, sessionId: match[2] as string } : null;
}
