/** Open conversations as tabs, and earlier ones in the history list (plain shared data). */

export interface TabView {
  id: string;
  title: string;
  agentId: string;
  agentLabel: string;
  /** A turn is running. */
  busy: boolean;
  /** The agent waits for the user: a permission answer or a form. */
  waiting: boolean;
  /** Nothing said yet: picking another agent switches this tab's agent instead of opening a new conversation. */
  empty: boolean;
  /** The agent can fork this conversation's session (unstable `session/fork`). */
  canFork: boolean;
  /** A replayed recording: nothing typed, picked or chosen in it reaches an agent. */
  readOnly?: boolean;
}

export interface TabsView {
  tabs: TabView[];
  activeTabId: string;
}

export interface HistoryItemView {
  key: string;
  /** 'tandem': a transcript Tandem kept; 'agent': listed by the agent (session/list). */
  source: 'tandem' | 'agent';
  agentId: string;
  agentLabel: string;
  sessionId: string | null;
  title: string;
  /** ISO time of the last activity, when known. */
  updatedAt: string | null;
}

export interface HistoryView {
  items: HistoryItemView[];
  /** Why some agents' sessions are missing (cannot list, not running, …). */
  notes: string[];
}

/** What the controls of a read-only tab say instead of acting. */
export const READ_ONLY_REASON = 'A replay: nothing is sent';
