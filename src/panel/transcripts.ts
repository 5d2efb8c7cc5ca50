import type { ThreadEntry } from '../contract/viewModel';
import { CoalescedTask } from '../util/coalescedTask';

/** Tandem's own record of a conversation, so it survives a window reload or a closed tab. */
export interface TranscriptRecord {
  tabId: string;
  agentId: string;
  /** The agent's session id, to continue it (null before session/new answered). */
  sessionId: string | null;
  title: string;
  updatedAt: string;
  entries: ThreadEntry[];
}

export interface TranscriptsState {
  open: TranscriptRecord[];
  activeTabId: string | null;
  /** Closed conversations, newest first. */
  closed: TranscriptRecord[];
}

/** Where records live (VS Code's workspace storage in the extension). */
export interface TranscriptStorage {
  read(): TranscriptsState | undefined;
  write(state: TranscriptsState): void;
}

const MAX_ENTRIES = 400;
const MAX_CLOSED = 50;
const MAX_TEXT = 200_000;

/** Keeps records bounded: the newest entries, long texts cut, the newest closed conversations. */
export function boundedRecord(record: TranscriptRecord): TranscriptRecord {
  const entries = record.entries.slice(-MAX_ENTRIES).map((entry) => {
    if ((entry.kind === 'agentMessage' || entry.kind === 'thought' || entry.kind === 'user') && entry.text.length > MAX_TEXT) {
      return { ...entry, text: `${entry.text.slice(0, MAX_TEXT)}\n\n… (shortened in Tandem's saved transcript)` };
    }
    return entry;
  });
  return { ...record, entries };
}

export function boundedState(state: TranscriptsState): TranscriptsState {
  return { open: state.open.map(boundedRecord), activeTabId: state.activeTabId, closed: state.closed.slice(0, MAX_CLOSED).map(boundedRecord) };
}

/** A title from the first thing the user said, until the agent names the session. */
export function fallbackTitle(entries: readonly ThreadEntry[]): string {
  const first = entries.find((entry) => entry.kind === 'user');
  const text = first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim() : '';
  return text ? (text.length > 48 ? `${text.slice(0, 47)}…` : text) : 'New conversation';
}

/** While an agent streams, a write waits for its turn to end, but no longer than this after the change it holds. */
const MAX_DEFER_MS = 15_000;

export interface TranscriptSaverOptions {
  /** Whether a turn is running: a write then waits (see MAX_DEFER_MS). */
  busy?: () => boolean;
  delayMs?: number;
}

/**
 * Writes the open conversations shortly after they change: many changes, one write. A write is
 * the whole state, serialized and written out on the extension host's thread, so one while an
 * agent streams would cost that turn in proportion to every conversation's length: it waits for
 * the turn to end instead, or at most MAX_DEFER_MS. Closing the window writes at once.
 */
export class TranscriptSaver {
  private readonly pendingWrite: CoalescedTask;
  private readonly busy: () => boolean;
  /** When the oldest change not yet written was made (Date.now()), or null when all is written. */
  private unsavedSince: number | null = null;

  constructor(private readonly storage: TranscriptStorage | null, private readonly state: () => TranscriptsState, options: TranscriptSaverOptions = {}) {
    this.busy = options.busy ?? (() => false);
    this.pendingWrite = new CoalescedTask(options.delayMs ?? 500, () => this.due());
  }

  schedule(): void {
    if (!this.storage) return;
    this.unsavedSince ??= Date.now();
    this.pendingWrite.schedule();
  }

  /** Writes now, whether or not a write was scheduled (the window is closing). */
  saveNow(): void {
    this.pendingWrite.cancel();
    this.write();
  }

  private due(): void {
    if (this.busy() && Date.now() - (this.unsavedSince ?? Date.now()) < MAX_DEFER_MS) return this.pendingWrite.schedule();
    this.write();
  }

  private write(): void {
    this.unsavedSince = null;
    this.storage?.write(boundedState(this.state()));
  }
}
