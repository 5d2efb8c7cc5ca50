import type { AgentDefinition } from '../agents/agentConfig';
import type { TerminalOutputView, TerminalStateView } from '../contract/terminalView';
import type { ConnectionView, ThreadDelta, TurnView } from '../contract/viewModel';
import type { TabView } from '../contract/sessionTabsView';
import { DisposableStore, type Disposable } from '../util/disposable';
import { SessionController, type SessionEnvironment } from '../conversation/sessionController';
import { PromptQueue } from '../conversation/promptQueue';
import { TerminalFeed } from '../terminals/panel/terminalFeed';
import { fallbackTitle, type TranscriptRecord } from './transcripts';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import { waitingQuestionOf, type WaitingQuestion } from './waitingQuestions';

/** What a tab tells the panel host; the host forwards only the active tab's stream. */
export interface TabListener {
  delta(tab: SessionTab, delta: ThreadDelta): void;
  connection(tab: SessionTab, connection: ConnectionView): void;
  turn(tab: SessionTab, turn: TurnView): void;
  terminals(tab: SessionTab, changed: TerminalStateView[], output: TerminalOutputView[]): void;
  /** Busy / waiting / title may have changed. */
  activity(tab: SessionTab): void;
  /** The messages waiting for this tab's turn to end changed. */
  queue(tab: SessionTab): void;
}

let nextTabNumber = 1;

/** One open conversation: a session controller and everything subscribed to it. */
export class SessionTab implements Disposable {
  readonly session: SessionController;
  readonly terminalFeed: TerminalFeed;
  readonly queue: PromptQueue;
  /** A replayed recording: it can be looked at, never acted on (see `allowedInReplay`). */
  readonly readOnly: boolean;
  private readonly subscriptions = new DisposableStore();
  private lastActivity = new Date().toISOString();

  constructor(
    readonly agent: AgentDefinition,
    environment: SessionEnvironment,
    listener: TabListener,
    mirrorTerminals: ((displays: TerminalDisplays) => Disposable) | undefined,
    readonly id = `tab-${Date.now().toString(36)}-${nextTabNumber++}`,
    /** A recording's session to show instead of starting one of the tab's own. */
    replayed: SessionController | null = null,
  ) {
    // The conversation's key is the tab's id: a window reloaded from the transcripts has the same
    // tab, so the changes its agent made before are still its own.
    const session = replayed ?? new SessionController(agent, environment, id);
    this.session = session;
    this.readOnly = replayed !== null;
    this.subscriptions.add(session.thread.onDelta((delta) => {
      listener.delta(this, delta);
      if (delta.type === 'entryAdded' || (delta.type === 'entryUpdated' && (delta.entry.kind === 'toolCall' || delta.entry.kind === 'elicitation'))) listener.activity(this);
    }));
    this.subscriptions.add(session.onConnectionChanged((connection) => listener.connection(this, connection)));
    this.subscriptions.add(session.onTurnChanged((turn) => {
      this.lastActivity = new Date().toISOString();
      listener.turn(this, turn);
      listener.activity(this);
    }));
    this.queue = this.subscriptions.add(new PromptQueue());
    this.subscriptions.add(this.queue.onDidChange(() => listener.queue(this)));
    const steerable = () => this.queue.setSteerable(session.canSteer);
    this.subscriptions.add(session.onTurnChanged(steerable));
    this.subscriptions.add(session.onConnectionChanged(steerable));
    this.terminalFeed = this.subscriptions.add(new TerminalFeed(session.terminalDisplays, (changed, output) => listener.terminals(this, changed, output)));
    if (mirrorTerminals) this.subscriptions.add(mirrorTerminals(session.terminalDisplays));
  }

  get title(): string {
    return this.session.thread.facts.title ?? fallbackTitle(this.session.thread.snapshot().slice(0, 3));
  }

  view(): TabView {
    return {
      id: this.id,
      title: this.title,
      agentId: this.agent.id,
      agentLabel: this.agent.label,
      busy: this.session.turnView.running,
      waiting: this.waitingQuestion() !== null,
      empty: this.session.thread.length === 0,
      canFork: this.session.history.fork && this.session.currentSessionId !== null && !this.session.turnView.running,
      readOnly: this.readOnly,
    };
  }

  /** The permission or form the agent waits on the user for, if any. */
  waitingQuestion(): WaitingQuestion | null {
    return this.readOnly ? null : waitingQuestionOf(this);
  }

  record(): TranscriptRecord {
    return {
      tabId: this.id,
      agentId: this.agent.id,
      sessionId: this.session.currentSessionId ?? this.restoredSessionId,
      title: this.title,
      updatedAt: this.lastActivity,
      entries: this.session.thread.snapshot(),
    };
  }

  /** The agent session this tab continues when it next starts (set when restored). */
  restoredSessionId: string | null = null;

  restore(record: TranscriptRecord): void {
    this.session.thread.restore(record.entries);
    this.lastActivity = record.updatedAt;
    if (record.title && record.title !== fallbackTitle(record.entries)) this.session.thread.setFact('title', record.title);
    if (record.sessionId) {
      this.restoredSessionId = record.sessionId;
      this.session.continueLater(record.sessionId);
    }
  }

  /** Continues one of the agent's sessions here; if the agent refuses, the tab says "<agent> could not <failure>". */
  async openExisting(target: Parameters<SessionController['openExisting']>[0], failure: string): Promise<void> {
    if (await this.session.openExisting(target)) return;
    this.session.thread.addNotice('error', `${this.agent.label} could not ${failure}. ${this.session.connectionView.message ?? ''}`.trim(), ['showLog']);
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.session.dispose();
  }
}
