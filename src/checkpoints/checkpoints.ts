/**
 * Checkpoints: every user message (and every restore) marks a point the project can go back
 * to. Nothing is copied when a checkpoint is taken; the first time a file changes after it, the
 * content it had just before belongs to the newest checkpoint, stored once by its sha256. The
 * file's content at any checkpoint is then the copy held by that checkpoint or the first later
 * one that has the file; a file no later checkpoint has did not change since.
 *
 * Storage is bounded: past `maxCheckpoints` checkpoints or `maxBytes` of distinct copies the
 * oldest checkpoints let their copies go and say so. Dropping oldest first keeps that lookup
 * whole for every checkpoint still restorable. Pure of the disk: blobs and the index go through ports.
 */
import { CoalescedTask } from '../util/coalescedTask';
import type { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import { silentLogger, type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import { emptyState, sha256, stateFromJson, stateToJson, type Captured, type Checkpoint, type CheckpointIndexJson, type CheckpointKind, type CheckpointState } from './checkpointsIndex';

export type { Captured, Checkpoint } from './checkpointsIndex';

/** Content-addressed bytes: the copies checkpoints hold. */
export interface CheckpointBlobs {
  /** Stores `bytes` under their sha256 (a second put of the same hash changes nothing). */
  put(hash: string, bytes: Uint8Array): Promise<void>;
  /** null when no such copy is stored. */
  get(hash: string): Promise<Uint8Array | null>;
  delete(hash: string): Promise<void>;
  /** Every hash stored, so copies no checkpoint refers to (left by a crash) can go. */
  list(): Promise<string[]>;
}

/** Where the index is kept (Tandem's workspace records): read once, written after changes. */
export interface CheckpointIndexStorage {
  read(): unknown;
  write(index: CheckpointIndexJson): PromiseLike<void>;
}

export interface CheckpointLimits {
  /** Distinct copies, in bytes, all checkpoints of the workspace may hold together. */
  maxBytes: number;
  /** Checkpoints (messages and restores) that stay restorable. */
  maxCheckpoints: number;
}

export const CHECKPOINT_LIMITS: CheckpointLimits = { maxBytes: 256 * 1024 * 1024, maxCheckpoints: 100 };

/** What a file held when read for a checkpoint: its bytes, no file (null), or why no copy could be taken. */
export type FileContent = Uint8Array | null | { unkept: string };

/** Bursts (an agent writing many files) are saved once. */
const SAVE_DELAY_MS = 500;

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

export class CheckpointStore implements Disposable {
  private readonly state: CheckpointState;
  /** Live checkpoints referring to each stored copy, and its size. */
  private readonly refs = new Map<string, { count: number; size: number }>();
  private liveBytes = 0;
  /** Copies taken whose write to the blob store is still queued. */
  private readonly unwritten = new Map<string, Uint8Array>();
  /** Blob and index writes, one at a time and in order: an index is written only after the copies it names. */
  private io: Promise<void> = Promise.resolve();
  private readonly save = new CoalescedTask(SAVE_DELAY_MS, () => void this.enqueue(() => this.storage.write(stateToJson(this.state))));
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly blobs: CheckpointBlobs,
    private readonly storage: CheckpointIndexStorage,
    readonly limits: CheckpointLimits = CHECKPOINT_LIMITS,
    private readonly logger: Logger = silentLogger,
  ) {
    this.state = this.read();
    for (const checkpoint of this.live()) {
      for (const captured of checkpoint.files.values()) if (captured.kind === 'bytes') this.retain(captured.hash, captured.size, null);
    }
    void this.enqueue(() => this.sweep());
  }

  /** Oldest first, restorable or not. */
  list(): readonly Checkpoint[] {
    return this.state.checkpoints;
  }

  find(id: string): Checkpoint | undefined {
    return this.state.checkpoints.find((checkpoint) => checkpoint.id === id);
  }

  /** The restore point of the last restore, which "Redo restore" goes back to. */
  get lastRestore(): Checkpoint | undefined {
    const id = this.state.lastRestore;
    const point = id === null ? undefined : this.find(id);
    return point && point.dropped === null ? point : undefined;
  }

  /** Distinct bytes the restorable checkpoints hold. */
  get storedBytes(): number {
    return this.liveBytes;
  }

  /** A new checkpoint, newest of all: the files changed from now on are captured into it. */
  begin(kind: CheckpointKind, tabId: string | null, label: string, restoredTo: string | null = null): Checkpoint {
    const checkpoint: Checkpoint = { id: `c${this.state.nextId++}`, createdAt: Date.now(), kind, tabId, messageId: null, label, restoredTo, files: new Map(), dropped: null, sessionId: null, context: null };
    this.state.checkpoints.push(checkpoint);
    this.enforceLimits();
    this.touched();
    return checkpoint;
  }

  /** The thread now holds the user message the checkpoint was taken for (`context`: see checkpointsLookup). */
  attachMessage(checkpoint: Checkpoint, messageId: string, label: string, context: string): void {
    checkpoint.messageId = messageId;
    checkpoint.label = label;
    checkpoint.context = context;
    this.touched();
  }

  /**
   * The messages of `tabId` not yet tied to an agent session went to `sessionId` (a first
   * message is sent before the agent has answered session/new).
   */
  noteSession(tabId: string, sessionId: string): void {
    let changed = false;
    for (const checkpoint of this.state.checkpoints) {
      if (checkpoint.tabId !== tabId || checkpoint.kind !== 'message' || checkpoint.sessionId !== null) continue;
      checkpoint.sessionId = sessionId;
      changed = true;
    }
    if (changed) this.save.schedule();
  }

  /** True when the newest checkpoint already holds the file's earlier content (nothing to read for it). */
  has(path: string): boolean {
    return this.newestLive()?.files.has(path) ?? true;
  }

  /** What `path` held right before a change: the newest checkpoint keeps it, unless it has it already. */
  noteBefore(path: string, content: FileContent): void {
    const newest = this.newestLive();
    if (!newest || newest.files.has(path)) return;
    newest.files.set(path, this.capture(content));
    this.enforceLimits();
    this.touched();
  }

  /** What Tandem saw the agent (or a restore) leave in `path`: a later difference is someone else's change. */
  noteLeft(path: string, content: FileContent): void {
    if (content !== null && !(content instanceof Uint8Array)) this.state.left.delete(path);
    else this.state.left.set(path, content === null ? null : sha256(content));
    this.save.schedule();
  }

  /** sha256 of what Tandem last left in `path` (null: no file); undefined when it does not know. */
  leftIn(path: string): string | null | undefined {
    return this.state.left.get(path);
  }

  /**
   * Every file changed since `checkpointId` by a path Tandem sees, with its content at that
   * checkpoint; or why the checkpoint cannot be restored.
   */
  targets(checkpointId: string): { files: Map<string, Captured> } | { error: string } {
    const at = this.state.checkpoints.findIndex((checkpoint) => checkpoint.id === checkpointId);
    const checkpoint = this.state.checkpoints[at];
    if (!checkpoint) return { error: 'Tandem no longer has this checkpoint.' };
    if (checkpoint.dropped !== null) return { error: `This checkpoint can no longer be restored: ${checkpoint.dropped}` };
    const files = new Map<string, Captured>();
    for (const later of this.state.checkpoints.slice(at)) {
      for (const [path, captured] of later.files) if (!files.has(path)) files.set(path, captured);
    }
    return { files };
  }

  /** A copy's bytes; null when it is missing or no longer matches its hash (damaged on disk). */
  async content(captured: Extract<Captured, { kind: 'bytes' }>): Promise<Uint8Array | null> {
    const bytes = this.unwritten.get(captured.hash) ?? (await this.blobs.get(captured.hash).catch(() => null));
    return bytes && sha256(bytes) === captured.hash ? bytes : null;
  }

  markRestored(restorePoint: Checkpoint): void {
    this.state.lastRestore = restorePoint.id;
    this.touched();
  }

  /** Resolves once every copy taken so far and the index are written. */
  async flush(): Promise<void> {
    this.save.flush();
    await this.io;
  }

  dispose(): void {
    this.save.flush();
    this.changed.dispose();
  }

  private read(): CheckpointState {
    const stored = this.storage.read();
    if (stored === undefined) return emptyState();
    try {
      return stateFromJson(stored);
    } catch (error) {
      this.logger.warn(`[checkpoints] the checkpoints of the last window could not be read, so they start afresh: ${errorMessage(error)}`);
      return emptyState();
    }
  }

  private live(): Checkpoint[] {
    return this.state.checkpoints.filter((checkpoint) => checkpoint.dropped === null);
  }

  /** Dropping goes oldest first, so when the newest is dropped every one is. */
  private newestLive(): Checkpoint | undefined {
    const newest = this.state.checkpoints.at(-1);
    return newest?.dropped === null ? newest : undefined;
  }

  private capture(content: FileContent): Captured {
    if (content === null) return { kind: 'absent' };
    if (!(content instanceof Uint8Array)) return { kind: 'unkept', reason: content.unkept };
    if (content.length > this.limits.maxBytes) {
      return { kind: 'unkept', reason: `it was ${sizeText(content.length)}, more than the ${sizeText(this.limits.maxBytes)} Tandem keeps for checkpoints` };
    }
    const hash = sha256(content);
    this.retain(hash, content.length, content);
    return { kind: 'bytes', hash, size: content.length };
  }

  /** One more live reference to a copy; the first one stores it (`bytes` null: it is stored already). */
  private retain(hash: string, size: number, bytes: Uint8Array | null): void {
    const ref = this.refs.get(hash);
    if (ref) {
      ref.count++;
      return;
    }
    this.refs.set(hash, { count: 1, size });
    this.liveBytes += size;
    if (!bytes) return;
    this.unwritten.set(hash, bytes);
    void this.enqueue(async () => {
      try {
        await this.blobs.put(hash, bytes);
      } finally {
        if (this.unwritten.get(hash) === bytes) this.unwritten.delete(hash);
      }
    });
  }

  private release(hash: string): void {
    const ref = this.refs.get(hash);
    if (!ref || --ref.count > 0) return;
    this.refs.delete(hash);
    this.liveBytes -= ref.size;
    this.unwritten.delete(hash);
    void this.enqueue(() => (this.refs.has(hash) ? undefined : this.blobs.delete(hash)));
  }

  private enforceLimits(): void {
    const live = this.live();
    while (live.length > 0 && (live.length > this.limits.maxCheckpoints || this.liveBytes > this.limits.maxBytes)) {
      const oldest = live.shift() as Checkpoint;
      this.drop(oldest, live.length >= this.limits.maxCheckpoints
        ? `Tandem keeps the last ${this.limits.maxCheckpoints} checkpoints of a workspace, and this one is older.`
        : `Tandem keeps at most ${sizeText(this.limits.maxBytes)} of file copies for the checkpoints of a workspace, and let the oldest go.`);
    }
    this.forgetOldDropped();
  }

  private drop(checkpoint: Checkpoint, reason: string): void {
    for (const captured of checkpoint.files.values()) if (captured.kind === 'bytes') this.release(captured.hash);
    checkpoint.files.clear();
    checkpoint.dropped = reason;
    this.logger.info(`[checkpoints] ${checkpoint.id} (${checkpoint.label}) dropped: ${reason}`);
    const covered = new Set(this.live().flatMap((live) => [...live.files.keys()]));
    for (const path of this.state.left.keys()) if (!covered.has(path)) this.state.left.delete(path);
  }

  /** Dropped checkpoints stay listed to say why they cannot be restored, but not without end. */
  private forgetOldDropped(): void {
    const dropped = this.state.checkpoints.filter((checkpoint) => checkpoint.dropped !== null);
    const forget = new Set(dropped.slice(0, Math.max(0, dropped.length - this.limits.maxCheckpoints)));
    if (forget.size > 0) this.state.checkpoints = this.state.checkpoints.filter((checkpoint) => !forget.has(checkpoint));
  }

  /** Copies no checkpoint refers to: left by a window that ended between a copy and its index. */
  private async sweep(): Promise<void> {
    for (const hash of await this.blobs.list()) {
      if (!this.refs.has(hash)) await this.blobs.delete(hash);
    }
  }

  private touched(): void {
    this.save.schedule();
    this.changed.fire();
  }

  private enqueue(run: () => unknown): Promise<void> {
    this.io = this.io.then(run).then(() => undefined, (error: unknown) => {
      this.logger.warn(`[checkpoints] ${errorMessage(error)}`);
    });
    return this.io;
  }
}
