/**
 * Feeds the checkpoints from the paths by which files change: a checkpoint as each user message
 * goes out, and the content a file had before its first change after it, whichever way the
 * agent changed it (through the editor's documents, or on disk, creating or deleting it).
 */
import type { CheckpointStore, Checkpoint, FileContent } from './checkpoints';
import { messageContext, type MessageThread } from './checkpointsLookup';
import type { ContentEncoding, RecordedChange } from '../review/types';

/** The change feed as the session's file service uses it (see ChangeFeed): what is watched. */
export interface WatchedChanges {
  record(path: string, change: RecordedChange, owner?: string): void;
  alreadyRecorded(path: string, text: string | null, encoding: ContentEncoding): boolean;
  agentWrite(path: string, write: () => Promise<void>): Promise<void>;
}

/** Reads a file's exact bytes for a checkpoint. */
export interface CheckpointDisk {
  read(path: string): Promise<FileContent>;
}

/** A checkpoint label: the message's first line, short. */
export function messageLabel(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A recorded change's side as the exact bytes of the file (text is UTF-8 with any BOM as U+FEFF). */
function bytesOf(content: string | null, encoding: ContentEncoding | undefined): Uint8Array | null {
  if (content === null) return null;
  return encoding === 'bytes' ? Buffer.from(content, 'latin1') : Buffer.from(content, 'utf8');
}

export class CheckpointRecorder {
  /**
   * `reviewed`: the files with changes pending review. Review's own undo and redo pass through
   * `watch`, but the user's edits of them do not, so their content is kept at every checkpoint
   * (a copy shared by hash).
   */
  constructor(private readonly store: CheckpointStore, private readonly disk: CheckpointDisk, private readonly reviewed: () => readonly string[]) {}

  /**
   * A user message of `tabId` is about to go to the agent: a checkpoint now. Resolves once the
   * files pending review are captured, so the agent has not started when it does.
   */
  async beforePrompt(tabId: string, text: string): Promise<Checkpoint> {
    const checkpoint = this.store.begin('message', tabId, messageLabel(text));
    const paths = this.reviewed().filter((path) => !this.store.has(path));
    const contents = await Promise.all(paths.map((path) => this.disk.read(path)));
    paths.forEach((path, index) => this.store.noteBefore(path, contents[index] ?? null));
    return checkpoint;
  }

  /** The prompt went out: the thread's newest user entry is the message this checkpoint is for. */
  sent(checkpoint: Checkpoint, thread: MessageThread): void {
    for (let index = thread.length - 1; index >= 0; index--) {
      const entry = thread.entryAt(index);
      if (entry?.kind !== 'user') continue;
      this.store.attachMessage(checkpoint, entry.id, messageLabel(entry.text ?? checkpoint.label), messageContext(thread, index));
      return;
    }
  }

  /** The same change feed, with each change seen by the checkpoints first. */
  watch(changes: WatchedChanges): WatchedChanges {
    return {
      record: (path, change, owner) => {
        this.recorded(path, change);
        changes.record(path, change, owner);
      },
      alreadyRecorded: (path, text, encoding) => changes.alreadyRecorded(path, text, encoding),
      agentWrite: async (path, write) => {
        // The document may hold unsaved text; the checkpoint wants what the disk had.
        if (!this.store.has(path)) this.store.noteBefore(path, await this.disk.read(path));
        try {
          await changes.agentWrite(path, write);
        } finally {
          this.store.noteLeft(path, await this.disk.read(path));
        }
      },
    };
  }

  /** Writes through the editor were captured (and read back) around the write itself; disk changes carry both sides. */
  private recorded(path: string, change: RecordedChange): void {
    this.store.noteBefore(path, bytesOf(change.before, change.encoding));
    if (change.origin === 'disk') this.store.noteLeft(path, bytesOf(change.after, change.encoding));
  }
}
