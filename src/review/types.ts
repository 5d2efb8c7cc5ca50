/** Public shapes of the change ledger: what the VS Code adapter and the webview see. */

/** 'editor': the change came through fs/write_text_file into a buffer; 'disk': the agent wrote the disk itself (found by snapshots). */
export type ChangeOrigin = 'editor' | 'disk';

/** One hunk: a maximal run of changed lines with no unchanged line inside it. Line starts are 0-based. */
export interface HunkView {
  id: string;
  baseStart: number;
  baseLineCount: number;
  currentStart: number;
  currentLineCount: number;
  /** Lines without their EOL, for display only (the ledger keeps the exact bytes). */
  removed: string[];
  added: string[];
}

export interface FileChangeView {
  path: string;
  origin: ChangeOrigin;
  status: 'created' | 'modified' | 'deleted';
  /** Added and removed line counts over all hunks. */
  added: number;
  removed: number;
  hunks: HunkView[];
  toolCallIds: string[];
}

/** What the adapter must write: the whole new text of `path`, or null to delete the file. */
export interface FileWrite {
  path: string;
  text: string | null;
}

export interface RecordedChange {
  before: string | null;
  after: string | null;
  origin: ChangeOrigin;
  toolCallId?: string;
}

/** The hunk id the caller named is no longer pending (kept, undone or recomputed away): refresh and retry. */
export class StaleHunkError extends Error {
  constructor(readonly path: string, readonly hunkId: string | null) {
    super(hunkId === null ? `No pending changes for ${path}` : `No pending hunk ${hunkId} in ${path}`);
    this.name = 'StaleHunkError';
  }
}
