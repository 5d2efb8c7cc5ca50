import type { AgentDefinition } from '../agents/agentConfig';
import type { HistoryItemView, HistoryView } from '../contract/sessionTabsView';
import { errorMessage } from '../redaction/redactedLog';
import type { SessionController } from '../conversation/sessionController';
import type { AgentCatalog } from './agentCatalog';
import type { OpenConversations } from './openConversations';
import type { MessageHandlers } from './panelMessages';
import type { TranscriptRecord } from './transcripts';
import type { WebviewStream } from './webviewStream';

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

/**
 * The panel's history: the closed conversations Tandem keeps (newest first) and the active
 * agent's own sessions. Opening an item brings it back in a tab; deleting forgets it.
 */
export class SessionHistory {
  private kept: TranscriptRecord[];

  readonly handlers: MessageHandlers<'requestHistory' | 'openHistory' | 'deleteHistory'> = {
    requestHistory: () => this.sendList(),
    openHistory: (message) => this.open(message.key),
    deleteHistory: (message) => this.delete(message.key),
  };

  constructor(
    closed: readonly TranscriptRecord[],
    private readonly agents: AgentCatalog,
    private readonly conversations: OpenConversations,
    private readonly view: WebviewStream,
    private readonly changed: () => void,
  ) {
    this.kept = [...closed];
  }

  get closed(): readonly TranscriptRecord[] {
    return this.kept;
  }

  /** A closed conversation; it replaces an older record of the same tab. */
  keep(record: TranscriptRecord): void {
    this.kept = [record, ...this.kept.filter((candidate) => candidate.tabId !== record.tabId)];
  }

  private async sendList(): Promise<void> {
    this.view.send({ type: 'historyChanged', history: await buildHistory(this.kept, this.agents.all, this.conversations.active.session) });
  }

  private async open(key: string): Promise<void> {
    const parsed = parseHistoryKey(key);
    if (!parsed) return;
    this.agents.reload();
    if (parsed.source === 'tandem') this.reopen(parsed.tabId);
    else await this.openAgentSession(parsed.agentId, parsed.sessionId);
  }

  /** A kept conversation comes back as its own tab again, with its transcript. */
  private reopen(tabId: string): void {
    const record = this.kept.find((candidate) => candidate.tabId === tabId);
    const agent = record && this.agents.find(record.agentId);
    if (!record || !agent) return;
    this.kept = this.kept.filter((candidate) => candidate !== record);
    this.conversations.open(agent, record.tabId).restore(record);
    this.view.snapshot();
  }

  /** An agent that can replay a session shows it; one that can only resume says the past is not shown. */
  private async openAgentSession(agentId: string, sessionId: string): Promise<void> {
    const agent = this.agents.find(agentId);
    if (!agent) return;
    const tab = this.conversations.open(agent);
    const history = tab.session.history;
    const kind = history.load || !history.resume ? 'load' : 'resume';
    if (kind === 'resume') tab.session.thread.addNotice('info', `${agent.label} can resume this session but not replay it: earlier messages are not shown.`);
    await tab.openExisting({ kind, sessionId }, 'open that session');
    this.view.tabsChanged();
  }

  private async delete(key: string): Promise<void> {
    const parsed = parseHistoryKey(key);
    if (!parsed) return;
    const active = this.conversations.active;
    if (parsed.source === 'tandem') this.kept = this.kept.filter((record) => record.tabId !== parsed.tabId);
    else if (parsed.agentId === active.agent.id) await active.session.deleteAgentSession(parsed.sessionId);
    this.changed();
    await this.sendList();
  }
}
