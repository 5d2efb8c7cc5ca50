/** Public shapes of the change ledger: what the VS Code adapter and the webview see. */

/** 'editor': the change came through fs/write_text_file into a buffer; 'disk': the agent wrote the disk itself (found by snapshots). */
export type ChangeOrigin = 'editor' | 'disk';

/**
 * How the ledger holds a file's content. 'text': its exact characters (strict UTF-8, a BOM kept
 * as U+FEFF), reviewed by lines. 'bytes': one character per byte (latin1), for content that is
 * not UTF-8 text or too large to review by lines (binary, UTF-16, Latin-1, over the text limit):
 * reviewed and undone as one whole-file hunk, written back byte for byte.
 */
export type ContentEncoding = 'text' | 'bytes';

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
  /** Set only for content held as bytes: one whole-file hunk whose lines describe the content. */
  encoding?: 'bytes';
}

/** What the adapter must write: the whole new text of `path`, or null to delete the file. */
export interface FileWrite {
  path: string;
  text: string | null;
  /** Set only for content held as bytes: `text` is latin1, one character per byte. */
  encoding?: 'bytes';
  /**
   * Bytes writes only: what the file should hold right now (latin1; null = no file). A file that
   * holds something else was changed since (e.g. saved from an editor) and is not overwritten.
   */
  replaces?: string | null;
}

export interface RecordedChange {
  before: string | null;
  after: string | null;
  origin: ChangeOrigin;
  toolCallId?: string;
  /** 'bytes': `before` and `after` are latin1 bytes (see ContentEncoding); text by default. */
  encoding?: ContentEncoding;
}

/** The hunk id the caller named is no longer pending (kept, undone or recomputed away): refresh and retry. */
export class StaleHunkError extends Error {
  constructor(readonly path: string, readonly hunkId: string | null) {
    super(hunkId === null ? `No pending changes for ${path}` : `No pending hunk ${hunkId} in ${path}`);
    this.name = 'StaleHunkError';
  }
}
