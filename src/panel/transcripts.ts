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

/** Writes the open conversations shortly after they change: many changes, one write. */
export class TranscriptSaver {
  private readonly pendingWrite: CoalescedTask;

  constructor(private readonly storage: TranscriptStorage | null, private readonly state: () => TranscriptsState, delayMs = 500) {
    this.pendingWrite = new CoalescedTask(delayMs, () => this.write());
  }

  schedule(): void {
    if (this.storage) this.pendingWrite.schedule();
  }

  /** Writes now, whether or not a write was scheduled (the window is closing). */
  saveNow(): void {
    this.pendingWrite.cancel();
    this.write();
  }

  private write(): void {
    this.storage?.write(boundedState(this.state()));
  }
}
