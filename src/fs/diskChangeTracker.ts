import { readFileSync, statSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import type { Disposable } from '../util/disposable';
import { DisposableStore } from '../util/disposable';
import type { Logger } from '../util/logger';
import type { ChangeRecorder } from './fsService';
import { resolveAgentPath } from './pathBoundary';
import { decodeText, looksBinary, MAX_TEXT_FILE_BYTES } from './textContent';
import { fileChangingKinds } from '../contract/viewModel';

type DiffContent = Extract<acp.ToolCallContent, { type: 'diff' }>;
type ToolCallUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

interface WatchedCall {
  /** Text of each path before the tool ran; null = the file did not exist. */
  before: Map<string, string | null>;
  /** Claude Code reports the file as it was before its own edit. */
  reportedOriginal: Map<string, string | null>;
  /** The agent's own diffs, the last resort for the text before. */
  diffs: Map<string, { oldText: string | null; newText: string }>;
  done: boolean;
}

export interface DiskChangeTrackerOptions {
  cwd: string;
  roots(): readonly string[];
  onUpdate(listener: (update: acp.SessionUpdate) => void): Disposable;
  changes: ChangeRecorder;
  /** True when the ledger already holds this text for the path (it came through fs/*). */
  alreadyRecorded(path: string, text: string | null): boolean;
  /** Files the agent changed on disk, so open editors can reload them. */
  onDiskChanged(paths: string[]): void;
  logger: Logger;
}

/** Reads a file's text now, synchronously, so the snapshot is taken before the agent's next step. */
export function readTextNow(path: string): string | null {
  try {
    if (statSync(path).size > MAX_TEXT_FILE_BYTES) return null;
    const bytes = readFileSync(path);
    return looksBinary(bytes) ? null : decodeText(bytes);
  } catch {
    return null;
  }
}

function claudeOriginalFile(meta: unknown): { path: string; text: string | null } | null {
  const response = (meta as { claudeCode?: { toolResponse?: { filePath?: unknown; originalFile?: unknown } } } | null | undefined)?.claudeCode?.toolResponse;
  if (!response || typeof response.filePath !== 'string') return null;
  return { path: response.filePath, text: typeof response.originalFile === 'string' ? response.originalFile : null };
}

/**
 * Review for agents that edit the disk themselves (Claude Code, Codex): snapshot every file an
 * edit, delete or move tool call names before it runs, compare when it ends, and put what
 * changed into the ledger as "written to disk by the agent".
 */
export class DiskChangeTracker implements Disposable {
  private readonly calls = new Map<string, WatchedCall>();
  private readonly store = new DisposableStore();

  constructor(private readonly options: DiskChangeTrackerOptions) {
    this.store.add(options.onUpdate((update) => this.onUpdate(update)));
  }

  dispose(): void {
    this.store.dispose();
    this.calls.clear();
  }

  private onUpdate(update: acp.SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const diffs = (update.content ?? []).filter((content): content is DiffContent => content.type === 'diff');
    const call = this.watchedCall(update, diffs.length > 0);
    if (!call || call.done) return;
    this.takeEvidence(call, update, diffs);
    if (update.status === 'completed' || update.status === 'failed') {
      call.done = true;
      this.compare(update.toolCallId, call);
    }
  }

  /** The call's record, started on the first update that shows it changes files; null for other calls. */
  private watchedCall(update: ToolCallUpdate, hasDiffs: boolean): WatchedCall | null {
    const known = this.calls.get(update.toolCallId);
    if (known) return known;
    const changesFiles = (update.kind && fileChangingKinds.has(update.kind)) || hasDiffs;
    if (!changesFiles) return null;
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
      if (path) call.diffs.set(path, { oldText: diff.oldText ?? null, newText: diff.newText });
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
    call.before.set(path, readTextNow(path));
  }

  private compare(toolCallId: string, call: WatchedCall): void {
    const paths = new Set([...call.before.keys(), ...call.reportedOriginal.keys(), ...call.diffs.keys()]);
    const changed: string[] = [];
    for (const path of paths) {
      const after = readTextNow(path);
      const before = this.textBefore(call, path, after);
      if (before === undefined || before === after || this.options.alreadyRecorded(path, after)) continue;
      this.options.changes.record(path, { before, after, origin: 'disk', toolCallId });
      changed.push(path);
    }
    if (changed.length > 0) {
      this.options.logger.info(`${toolCallId} changed on disk: ${changed.join(', ')}`);
      this.options.onDiskChanged(changed);
    }
  }

  /** Best evidence first: our own snapshot, the agent's reported original, then its diff. */
  private textBefore(call: WatchedCall, path: string, after: string | null): string | null | undefined {
    const snapshot = call.before.get(path);
    const reported = call.reportedOriginal.get(path);
    // A snapshot taken too late already holds the agent's result; the agent's report then knows better.
    if (snapshot !== undefined && !(snapshot === after && reported !== undefined)) return snapshot;
    if (reported !== undefined) return reported;
    const diff = call.diffs.get(path);
    if (!diff) return snapshot;
    if (diff.oldText === null) return null;
    if (after !== null && after.includes(diff.newText)) return after.replace(diff.newText, diff.oldText);
    return undefined;
  }
}
