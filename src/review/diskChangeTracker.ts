import type * as acp from '@agentclientprotocol/sdk';
import { looksApplied, textBeforeDiffs, type AgentDiff } from './agentDiffs';
import { textToLatin1 } from './contentBytes';
import type { ContentEncoding, RecordedChange } from './types';
import type { Disposable } from '../util/disposable';
import { DisposableStore } from '../util/disposable';
import type { Logger } from '../util/logger';
import { readDiskNow, sameContent, type DiskContent, type Kept } from './diskSnapshot';
import { resolveAgentPath } from '../files/pathBoundary';
import { WorkspaceBaseline } from './workspaceBaseline';
import { fileChangingKinds, type ToolKindView } from '../acp/toolKinds';

export { MAX_KEPT_FILE_BYTES } from './diskSnapshot';

type DiffContent = Extract<acp.ToolCallContent, { type: 'diff' }>;
type ToolCallUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

/** Kinds that by their name never change a file: the paths they name are not snapshotted. */
const LOOKING_KINDS: ReadonlySet<string> = new Set<ToolKindView>(['read', 'search', 'think', 'fetch', 'switch_mode']);

interface WatchedCall {
  /** Each path as it was before the tool ran (as early as the call named it). */
  before: Map<string, DiskContent>;
  /** Claude Code reports the file as it was before its own edit (null = it did not exist). */
  reportedOriginal: Map<string, string | null>;
  /** The agent's own diffs, in order, for when the snapshot came too late. */
  diffs: Map<string, AgentDiff[]>;
  done: boolean;
}


type Ending = 'completed' | 'failed' | 'unfinished';

export interface DiskChangeTrackerOptions {
  cwd: string;
  roots(): readonly string[];
  onUpdate(listener: (update: acp.SessionUpdate) => void): Disposable;
  /** The tool call of each permission request, as it is asked (the only place some agents name its files). */
  onPermissionRequest(listener: (toolCall: acp.ToolCallUpdate) => void): Disposable;
  /** The user's prompt is about to go to the agent: the files as they are now are what its turn starts from. */
  onTurnStart(listener: () => void): Disposable;
  /**
   * Whether the agent works on a prompt (its turn runs, or the prompt is unanswered). Calls first
   * seen otherwise are not watched: they are history, a loaded session's replay (Gemini CLI
   * replays after answering `session/load`), and the disk now says nothing of what they did then.
   * Without it, every call is watched.
   */
  promptUnderWay?(): boolean;
  changes: { record(path: string, change: RecordedChange): void };
  /** True when the ledger already holds this content for the path (it came through fs/*). */
  alreadyRecorded(path: string, text: string | null, encoding: ContentEncoding): boolean;
  /** Files the agent changed on disk, so open editors can reload them. */
  onDiskChanged(paths: string[]): void;
  /** Tells the user, in one sentence, of a change that could not be put up for review. */
  notify(text: string): void;
  logger: Logger;
}

function claudeOriginalFile(meta: unknown): { path: string; text: string | null } | null {
  const response = (meta as { claudeCode?: { toolResponse?: { filePath?: unknown; originalFile?: unknown } } } | null | undefined)?.claudeCode?.toolResponse;
  if (!response || typeof response.filePath !== 'string') return null;
  // No originalFile at all says nothing; null says the file is new.
  if (response.originalFile !== null && typeof response.originalFile !== 'string') return null;
  return { path: response.filePath, text: response.originalFile };
}

const DIFF_KINDS: readonly unknown[] = ['add', 'modify', 'delete'] satisfies AgentDiff['kind'][];

function agentDiff(diff: DiffContent): AgentDiff {
  const kind = (diff._meta as { kind?: unknown } | null | undefined)?.kind;
  const said = DIFF_KINDS.includes(kind) ? { kind: kind as AgentDiff['kind'] } : {};
  return { oldText: diff.oldText ?? null, newText: diff.newText, ...said };
}

/** True for a call that may change the files it names: an edit kind, a diff, or named files under any kind that is not only looking. */
function mayChangeFiles(kind: string | undefined, update: ToolCallUpdate, hasDiffs: boolean): boolean {
  if (hasDiffs || (kind !== undefined && fileChangingKinds.has(kind))) return true;
  return (update.locations ?? []).length > 0 && !LOOKING_KINDS.has(kind ?? 'other');
}

/**
 * Review for agents that edit the disk themselves (Claude Code, Codex): snapshot every file a
 * tool call that may change files names, as soon as it names it, compare when the call ends
 * (or when the session ends first: an agent that dies mid-call may have written already), and
 * put what changed into the ledger as "written to disk by the agent". A snapshot that already
 * holds the agent's result yields to what the agent says the file held.
 */
export class DiskChangeTracker implements Disposable {
  private readonly calls = new Map<string, WatchedCall>();
  /** Kinds of calls seen but not watched: later updates rarely repeat the kind. */
  private readonly kinds = new Map<string, string>();
  private readonly store = new DisposableStore();
  /** The workspace at the session's start and at each turn's: the "before" of a call seen only after its write. */
  private readonly baseline: WorkspaceBaseline;

  constructor(private readonly options: DiskChangeTrackerOptions) {
    this.baseline = new WorkspaceBaseline(options.roots);
    this.baseline.refresh();
    this.store.add(options.onUpdate((update) => this.onUpdate(update)));
    // Asked before it runs, a call's files are snapshotted before the agent can have written them.
    this.store.add(options.onPermissionRequest((toolCall) => this.onUpdate({ ...toolCall, sessionUpdate: 'tool_call_update' }, true)));
    this.store.add(options.onTurnStart(() => this.baseline.refresh()));
  }

  /** Calls still running when the session ends are compared now, before anything is forgotten. */
  dispose(): void {
    this.store.dispose();
    for (const [toolCallId, call] of this.calls) {
      if (!call.done) this.finish(toolCallId, call, 'unfinished');
    }
    this.calls.clear();
    this.kinds.clear();
  }

  /** `asked`: the call asks permission, so it is being made now. */
  private onUpdate(update: acp.SessionUpdate, asked = false): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    // A call followed since its turn is still compared when its end comes after the turn's.
    if (!asked && !this.calls.has(update.toolCallId) && this.options.promptUnderWay?.() === false) return;
    const diffs = (update.content ?? []).filter((content): content is DiffContent => content.type === 'diff');
    const ended = update.status === 'completed' || update.status === 'failed' ? update.status : null;
    const call = this.watchedCall(update, diffs.length > 0);
    if (!call) {
      if (ended) this.kinds.delete(update.toolCallId);
      return;
    }
    if (call.done) return;
    this.takeEvidence(call, update, diffs);
    if (ended) this.finish(update.toolCallId, call, ended);
  }

  /** The call's record, started on the first update that shows it may change files; null for other calls. */
  private watchedCall(update: ToolCallUpdate, hasDiffs: boolean): WatchedCall | null {
    const known = this.calls.get(update.toolCallId);
    if (known) return known;
    const kind = update.kind ?? this.kinds.get(update.toolCallId);
    if (!mayChangeFiles(kind, update, hasDiffs)) {
      if (kind !== undefined) this.kinds.set(update.toolCallId, kind);
      return null;
    }
    this.kinds.delete(update.toolCallId);
    const call: WatchedCall = { before: new Map(), reportedOriginal: new Map(), diffs: new Map(), done: false };
    this.calls.set(update.toolCallId, call);
    return call;
  }

  /** Snapshots of the paths the update names, and what the agent itself says the files held. */
  private takeEvidence(call: WatchedCall, update: ToolCallUpdate, diffs: readonly DiffContent[]): void {
    const paths = [...(update.locations ?? []).map((location) => location.path), ...diffs.map((diff) => diff.path)];
    for (const path of paths) this.snapshot(call, path);
    for (const diff of diffs) {
      const path = this.inside(diff.path);
      if (path) call.diffs.set(path, [...(call.diffs.get(path) ?? []), agentDiff(diff)]);
    }
    const original = claudeOriginalFile(update._meta);
    const originalPath = original && this.inside(original.path);
    if (original && originalPath) call.reportedOriginal.set(originalPath, original.text);
  }

  private inside(path: string): string | null {
    const resolved = resolveAgentPath(path, this.options.cwd, this.options.roots());
    return resolved.inside ? resolved.path : null;
  }

  private snapshot(call: WatchedCall, rawPath: string): void {
    const path = this.inside(rawPath);
    if (!path || call.before.has(path)) return;
    call.before.set(path, readDiskNow(path));
  }

  private finish(toolCallId: string, call: WatchedCall, ending: Ending): void {
    call.done = true;
    this.compare(toolCallId, call, ending);
    // Later updates of a finished call are ignored; its copies need not stay in memory.
    call.before.clear();
    call.reportedOriginal.clear();
    call.diffs.clear();
  }

  private compare(toolCallId: string, call: WatchedCall, ending: Ending): void {
    const paths = new Set([...call.before.keys(), ...call.reportedOriginal.keys(), ...call.diffs.keys()]);
    const changed: string[] = [];
    for (const path of paths) {
      const after = readDiskNow(path);
      if (this.asTheTurnLeftIt(call, path, after)) continue;
      const before = this.contentBefore(call, path, after, ending);
      this.baseline.update(path, after);
      if (!before || sameContent(before, after)) {
        this.noteUnknownBefore(call, path, after, ending);
      } else if (before.kind === 'unkept' || after.kind === 'unkept') {
        this.noteUnkept(path, before, after);
      } else if (this.record(path, before, after, toolCallId)) {
        changed.push(path);
      }
    }
    if (changed.length > 0) {
      this.options.logger.info(`${toolCallId} changed on disk: ${changed.join(', ')}`);
      this.options.onDiskChanged(changed);
    }
  }

  /**
   * The file holds what the turn last left in it (as it started, or the last change seen in it),
   * and no copy this call took says otherwise: the call changed nothing now, whatever its diffs
   * or reported original say. Those are history then: a loaded session's replay, which Gemini CLI
   * sends after answering `session/load`, so also after a prompt that had to start the agent.
   */
  private asTheTurnLeftIt(call: WatchedCall, path: string, after: DiskContent): boolean {
    const snapshot = call.before.get(path);
    if (snapshot && !sameContent(snapshot, after)) return false;
    const atTurnStart = this.baseline.before(path);
    return atTurnStart !== undefined && sameContent(atTurnStart, after);
  }

  /**
   * Best evidence first: our own snapshot when the file changed since; else (no snapshot, or one
   * that already holds the agent's result) the agent's reported original, then its diffs, then
   * the file as it was when the turn started; a failed call's diffs and baseline are no evidence
   * (its write most likely never happened).
   */
  private contentBefore(call: WatchedCall, path: string, after: DiskContent, ending: Ending): DiskContent | undefined {
    const snapshot = call.before.get(path);
    if (snapshot && !sameContent(snapshot, after)) return this.unlessTorn(snapshot, path);
    const reported = call.reportedOriginal.get(path);
    if (reported !== undefined) return { kind: 'kept', encoding: 'text', content: reported };
    const diffs = call.diffs.get(path);
    if (diffs && ending !== 'failed' && after.kind === 'kept' && after.encoding === 'text') {
      const text = textBeforeDiffs(after.content, diffs);
      if (text !== undefined) return { kind: 'kept', encoding: 'text', content: text };
    }
    // Only for a file that can be reviewed now: of any other, no change is known.
    const atTurnStart = ending === 'failed' || after.kind === 'unkept' ? undefined : this.baseline.before(path);
    return atTurnStart && !sameContent(atTurnStart, after) ? atTurnStart : snapshot;
  }

  /**
   * An empty copy of a file that held text (or did not exist) when the turn started was most
   * likely read between the agent's creating or truncating the file and writing it: the turn's
   * start is then the better "before".
   */
  private unlessTorn(snapshot: DiskContent, path: string): DiskContent {
    if (snapshot.kind !== 'kept' || snapshot.content !== '') return snapshot;
    const atTurnStart = this.baseline.before(path);
    return atTurnStart?.kind === 'kept' && atTurnStart.content !== '' ? atTurnStart : snapshot;
  }

  /** Into the ledger, as bytes when either side is; false when there is nothing new to review. */
  private record(path: string, before: Kept, after: Kept, toolCallId: string): boolean {
    const encoding: ContentEncoding = before.encoding === 'bytes' || after.encoding === 'bytes' ? 'bytes' : 'text';
    const as = (content: Kept) => (content.encoding === encoding ? content.content : textToLatin1(content.content));
    const change: RecordedChange = { before: as(before), after: as(after), origin: 'disk', toolCallId };
    if (change.before === change.after || this.options.alreadyRecorded(path, change.after, encoding)) return false;
    this.options.changes.record(path, encoding === 'bytes' ? { ...change, encoding } : change);
    return true;
  }

  private noteUnkept(path: string, before: DiskContent, after: DiskContent): void {
    const reason = after.kind === 'unkept' ? after.reason : before.kind === 'unkept' ? before.reason : 'no copy could be kept';
    this.tell(path, `The agent changed ${path} on disk, but Tandem cannot offer it for review or undo: ${reason}.`);
  }

  /**
   * No difference seen, yet the agent's diffs say it changed the file: its copy came too late
   * and the diffs do not tell what the file held (or it is one no copy is kept of). Not when
   * the call failed, the agent reported the original, or the change came through fs/* already.
   */
  private noteUnknownBefore(call: WatchedCall, path: string, after: DiskContent, ending: Ending): void {
    const diffs = call.diffs.get(path) ?? [];
    if (ending === 'failed' || diffs.length === 0 || call.reportedOriginal.has(path)) return;
    if (after.kind === 'unkept') return this.noteUnkept(path, after, after);
    if (after.encoding !== 'text' || !looksApplied(after.content, diffs) || this.options.alreadyRecorded(path, after.content, 'text')) return;
    this.tell(path, `The agent changed ${path} on disk before Tandem could keep a copy, and its diff does not say what the file held: this change is not in review, so check it yourself.`);
  }

  private tell(path: string, sentence: string): void {
    this.options.logger.warn(`[review] ${path}: ${sentence}`);
    this.options.notify(sentence);
  }
}
