import type * as acp from '@agentclientprotocol/sdk';
import { Emitter } from '../util/emitter';
import type { ElicitationView } from './elicitationForm';
import type {
  CompactionView, LocationView, NoticeAction, NoticeSeverity, PermissionOptionView, SteerOutcomeView, StopReasonView, ThreadDelta, ThreadEntry, ToolCallView,
} from './entries';
import { contentBlockText, mergeToolCall, newToolCallView, toLocation, toPlanItems } from './toolCallMapping';
import { parentToolCallIdOf } from './agentMeta';
import { rateLimitOf, withRateLimit } from '../usage/planLimits';
import { awaitsTokensAfter, mergeCompaction } from './compactions';
import { planOfTurn, settleRestored, stoppedPlan } from './unfinishedTurns';
import type { SessionFactName, SessionFacts, SessionFactsOwner } from './sessionFacts';

export type { SessionFactName, SessionFacts, SessionFactsOwner } from './sessionFacts';

/** Where a tool call works, as the agent just reported it. */
export interface ToolCallLocated {
  toolCallId: string;
  locations: LocationView[];
}

type StreamedKind = 'agentMessage' | 'thought' | 'user';
type CompactionUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'compaction_update' | 'compaction_summary_chunk' }>;

/**
 * The conversation as an ordered list of entries, built from `session/update` notifications.
 * Pure: it knows nothing of processes or VS Code, and reports every change as a `ThreadDelta`.
 */
export class ThreadModel implements SessionFactsOwner {
  private readonly entries: ThreadEntry[] = [];
  private readonly indexById = new Map<string, number>();
  private readonly toolEntryIdByCallId = new Map<string, string>();
  /** The entry a chunk stream is appending to, the agent's message id if it sent one, and the subagent's tool call. */
  private openStream: { entryId: string; kind: StreamedKind; messageId: string | null; parent: string | null } | null = null;
  private readonly compactionEntryIds = new Map<string, string>();
  private nextId = 1;
  private readonly deltaEmitter = new Emitter<ThreadDelta>();
  readonly onDelta = this.deltaEmitter.event;
  private readonly factValues: SessionFacts = { title: null, usage: null, currentModeId: null, availableCommands: [], configOptions: [], rateLimits: [] };
  private readonly factEmitter = new Emitter<SessionFactName>();
  /** Which fact changed (usage, title, mode, commands, config options); read the value from `facts`. */
  readonly onFactChanged = this.factEmitter.event;
  private readonly locatedEmitter = new Emitter<ToolCallLocated>();
  /** Each time the agent says where a tool call works (files, lines), in its order: "follow the agent" shows the last. */
  readonly onToolCallLocated = this.locatedEmitter.event;

  get facts(): Readonly<SessionFacts> {
    return this.factValues;
  }

  setFact<K extends SessionFactName>(name: K, value: SessionFacts[K]): void {
    if (this.factValues[name] === value) return;
    this.factValues[name] = value;
    this.factEmitter.fire(name);
  }

  snapshot(): ThreadEntry[] {
    return this.entries.map((entry) => structuredClone(entry));
  }

  get length(): number {
    return this.entries.length;
  }

  entryAt(index: number): ThreadEntry | undefined {
    return this.entries[index];
  }

  toolCall(toolCallId: string): ToolCallView | undefined {
    const entry = this.toolEntry(toolCallId);
    return entry?.tool;
  }

  /** The newest tool call that matches, e.g. the edit a write most likely belongs to. */
  findLastToolCall(matches: (tool: ToolCallView) => boolean): ToolCallView | undefined {
    const entry = this.findLastEntry((candidate) => candidate.kind === 'toolCall' && matches(candidate.tool));
    return entry?.kind === 'toolCall' ? entry.tool : undefined;
  }

  /** The newest entry that matches, read from the end (a question waiting is near it). */
  findLastEntry(matches: (entry: ThreadEntry) => boolean): ThreadEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry && matches(entry)) return entry;
    }
    return undefined;
  }

  /** Text of the newest agent message, e.g. for tests and "copy last answer". */
  lastAgentText(): string {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry?.kind === 'agentMessage') return entry.text;
    }
    return '';
  }

  /** `steered`: the message went into the running turn (what the agent answered), not into a turn of its own. */
  addUserMessage(text: string, steered?: SteerOutcomeView): void {
    this.openStream = null;
    this.add({ kind: 'user', id: this.newId(), text, ...(steered ? { steered } : {}) });
  }

  /** The text of a message marked interrupted, no longer marked (Retry sends it again); null for any other entry. */
  takeInterrupted(entryId: string): string | null {
    const index = this.indexById.get(entryId);
    const entry = index === undefined ? undefined : this.entries[index];
    if (entry?.kind !== 'user' || !entry.interrupted) return null;
    this.replace({ ...entry, interrupted: false });
    return entry.text;
  }

  addNotice(severity: NoticeSeverity, text: string, actions: NoticeAction[] = []): void {
    this.openStream = null;
    this.add({ kind: 'notice', id: this.newId(), severity, text, actions });
  }

  /** Ends the turn. A cancelled turn also stops every tool call that was still running. */
  endTurn(stopReason: StopReasonView, detail: string | null = null): void {
    this.openStream = null;
    if (stopReason === 'cancelled' || stopReason === 'error') {
      this.stopUnfinishedToolCalls();
      const stopped = stoppedPlan(this.entries[planOfTurn(this.entries, this.entries.length)]);
      if (stopped) this.replace(stopped);
    }
    this.add({ kind: 'turnEnded', id: this.newId(), stopReason, detail });
  }

  /** Puts back a transcript Tandem kept (window reload, reopened session); tool calls stay addressable. */
  restore(entries: readonly ThreadEntry[]): void {
    this.entries.length = 0;
    this.indexById.clear();
    this.toolEntryIdByCallId.clear();
    this.compactionEntryIds.clear();
    this.openStream = null;
    const copies = entries.map((entry) => structuredClone(entry));
    settleRestored(copies);
    for (const copy of copies) {
      // A permission cannot outlive the process that asked for it.
      if (copy.kind === 'toolCall' && (copy.tool.permission || copy.tool.status === 'pending' || copy.tool.status === 'in_progress')) {
        copy.tool = { ...copy.tool, permission: null, status: 'cancelled' };
      }
      this.indexById.set(copy.id, this.entries.length);
      if (copy.kind === 'toolCall') this.toolEntryIdByCallId.set(copy.tool.toolCallId, copy.id);
      if (copy.kind === 'compaction') this.compactionEntryIds.set(copy.compaction.compactionId, copy.id);
      this.entries.push(copy);
      const number = Number(copy.id.slice(1));
      if (Number.isFinite(number) && number >= this.nextId) this.nextId = number + 1;
    }
    this.deltaEmitter.fire({ type: 'threadCleared' });
    for (const entry of this.entries) this.deltaEmitter.fire({ type: 'entryAdded', entry: structuredClone(entry) });
  }

  clear(): void {
    this.entries.length = 0;
    this.indexById.clear();
    this.toolEntryIdByCallId.clear();
    this.compactionEntryIds.clear();
    this.openStream = null;
    this.deltaEmitter.fire({ type: 'threadCleared' });
  }

  applyUpdate(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.appendChunk('agentMessage', update.content, update.messageId ?? null, parentToolCallIdOf(update._meta));
      case 'agent_thought_chunk':
        return this.appendChunk('thought', update.content, update.messageId ?? null, parentToolCallIdOf(update._meta));
      case 'user_message_chunk':
        return this.appendChunk('user', update.content, update.messageId ?? null, null);
      case 'tool_call':
      case 'tool_call_update':
        return this.applyToolCall(update);
      case 'plan':
        return this.replacePlan(update.entries);
      case 'notice':
        return this.addNotice(noticeSeverity(update.severity), update.description ? `${update.title}: ${update.description}` : update.title);
      case 'compaction_update':
      case 'compaction_summary_chunk':
        return this.applyCompaction(update);
      default:
        return this.applyFactUpdate(update);
    }
  }

  /** Puts a permission request into its tool call's card, creating the card if it was never announced. */
  setPermission(toolCall: acp.ToolCallUpdate, requestId: string, options: PermissionOptionView[]): void {
    this.openStream = null;
    this.upsertToolCall(toolCall.toolCallId, (tool) => ({ ...mergeToolCall(tool, toolCall), permission: { requestId, options } }));
  }

  /** Tandem's policy answered a permission by itself: the card says so and why. */
  notePermission(toolCall: acp.ToolCallUpdate, note: string): void {
    this.openStream = null;
    this.upsertToolCall(toolCall.toolCallId, (tool) => ({ ...mergeToolCall(tool, toolCall), permissionNote: note }));
  }

  /** Adds an elicitation form, or updates it (errors, final state) by its request id. */
  setElicitation(view: ElicitationView): void {
    for (const entry of this.entries) {
      if (entry.kind === 'elicitation' && entry.elicitation.requestId === view.requestId) {
        this.replace({ ...entry, elicitation: view });
        return;
      }
    }
    this.openStream = null;
    this.add({ kind: 'elicitation', id: this.newId(), elicitation: view });
  }

  clearPermission(requestId: string): void {
    for (const entry of this.entries) {
      if (entry.kind === 'toolCall' && entry.tool.permission?.requestId === requestId) {
        this.replace({ ...entry, tool: { ...entry.tool, permission: null } });
      }
    }
  }

  private applyToolCall(update: acp.ToolCall | acp.ToolCallUpdate): void {
    this.openStream = null;
    this.upsertToolCall(update.toolCallId, (tool) => mergeToolCall(tool, update));
    const locations = update.locations ?? [];
    if (locations.length > 0) this.locatedEmitter.fire({ toolCallId: update.toolCallId, locations: locations.map(toLocation) });
  }

  /** The session-level updates: each sets one fact. */
  private applyFactUpdate(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'usage_update':
        return this.applyUsage(update);
      case 'current_mode_update':
        return this.setFact('currentModeId', update.currentModeId);
      case 'available_commands_update':
        return this.setFact('availableCommands', update.availableCommands);
      case 'config_option_update':
        return this.setFact('configOptions', update.configOptions);
      case 'session_info_update':
        if (update.title !== undefined) this.setFact('title', update.title ?? null);
        return;
      default:
        // Future variants carry nothing the thread shows yet.
        return;
    }
  }

  private applyUsage(update: Extract<acp.SessionUpdate, { sessionUpdate: 'usage_update' }>): void {
    const limit = rateLimitOf(update._meta);
    if (limit) this.setFact('rateLimits', withRateLimit(this.factValues.rateLimits, limit));
    const latest = this.latestCompaction();
    if (latest && awaitsTokensAfter(latest.compaction)) this.replace({ ...latest, compaction: { ...latest.compaction, tokensAfter: update.used } });
    this.setFact('usage', { used: update.used, size: update.size, cost: update.cost ? { amount: update.cost.amount, currency: update.cost.currency } : null });
  }

  /** A compaction is one entry, addressed by the agent's id and patched in place. */
  private applyCompaction(update: CompactionUpdate): void {
    this.openStream = null;
    const entryId = this.compactionEntryIds.get(update.compactionId);
    const index = entryId === undefined ? undefined : this.indexById.get(entryId);
    const existing = index === undefined ? undefined : this.entries[index];
    if (existing?.kind === 'compaction') {
      this.replace({ ...existing, compaction: mergeCompaction(existing.compaction, update, null) });
      return;
    }
    const id = this.newId();
    this.compactionEntryIds.set(update.compactionId, id);
    this.add({ kind: 'compaction', id, compaction: mergeCompaction(null, update, this.factValues.usage?.used ?? null) });
  }

  private latestCompaction(): { kind: 'compaction'; id: string; compaction: CompactionView } | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry?.kind === 'compaction') return entry;
    }
    return undefined;
  }

  private appendChunk(kind: StreamedKind, content: acp.ContentBlock, messageId: string | null, parent: string | null): void {
    const text = contentBlockText(content);
    const open = this.openStream;
    const continues = open !== null && open.kind === kind && open.parent === parent && (messageId === null || open.messageId === null || open.messageId === messageId);
    if (continues) {
      const index = this.indexById.get(open.entryId);
      const entry = index === undefined ? undefined : this.entries[index];
      if (entry && (entry.kind === 'agentMessage' || entry.kind === 'thought' || entry.kind === 'user')) {
        entry.text += text;
        open.messageId ??= messageId;
        this.deltaEmitter.fire({ type: 'textAppended', entryId: entry.id, text });
        return;
      }
    }
    const id = this.newId();
    this.openStream = { entryId: id, kind, messageId, parent };
    if (kind !== 'user' && parent) this.add({ kind, id, text, parentToolCallId: parent });
    else this.add({ kind, id, text });
  }

  private upsertToolCall(toolCallId: string, change: (tool: ToolCallView) => ToolCallView): void {
    const existing = this.toolEntry(toolCallId);
    if (existing) {
      this.replace({ ...existing, tool: change(existing.tool) });
      return;
    }
    const id = this.newId();
    this.toolEntryIdByCallId.set(toolCallId, id);
    this.add({ kind: 'toolCall', id, tool: change(newToolCallView(toolCallId)) });
  }

  private replacePlan(entries: readonly acp.PlanEntry[]): void {
    this.openStream = null;
    const items = toPlanItems(entries);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (!entry || entry.kind === 'user') break;
      if (entry.kind === 'plan') {
        this.replace({ ...entry, items });
        return;
      }
    }
    this.add({ kind: 'plan', id: this.newId(), items });
  }

  private stopUnfinishedToolCalls(): void {
    for (const entry of this.entries) {
      if (entry.kind !== 'toolCall') continue;
      const { status, permission } = entry.tool;
      if (status === 'pending' || status === 'in_progress' || permission) {
        this.replace({ ...entry, tool: { ...entry.tool, status: 'cancelled', permission: null } });
      }
    }
  }

  private toolEntry(toolCallId: string): Extract<ThreadEntry, { kind: 'toolCall' }> | undefined {
    const entryId = this.toolEntryIdByCallId.get(toolCallId);
    const index = entryId === undefined ? undefined : this.indexById.get(entryId);
    const entry = index === undefined ? undefined : this.entries[index];
    return entry?.kind === 'toolCall' ? entry : undefined;
  }

  private add(entry: ThreadEntry): void {
    this.indexById.set(entry.id, this.entries.length);
    this.entries.push(entry);
    this.deltaEmitter.fire({ type: 'entryAdded', entry: structuredClone(entry) });
  }

  private replace(entry: ThreadEntry): void {
    const index = this.indexById.get(entry.id);
    if (index === undefined) return;
    this.entries[index] = entry;
    this.deltaEmitter.fire({ type: 'entryUpdated', entry: structuredClone(entry) });
  }

  private newId(): string {
    return `e${this.nextId++}`;
  }
}

function noticeSeverity(severity: acp.NoticeSeverity): NoticeSeverity {
  return severity === 'error' || severity === 'warning' ? severity : 'info';
}
