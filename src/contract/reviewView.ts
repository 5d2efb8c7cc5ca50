/** Pending agent changes as the panel shows them (plain data shared with the webview). */

/** 'editor': came through fs/write_text_file into a buffer; 'disk': the agent wrote the disk itself. */
export type ChangeOriginView = 'editor' | 'disk';

export interface ReviewHunkView {
  id: string;
  /** 0-based first line of the hunk in the current text. */
  currentStart: number;
  removed: string[];
  added: string[];
}

export interface ReviewFileView {
  path: string;
  /** Path relative to the workspace, for display. */
  label: string;
  origin: ChangeOriginView;
  status: 'created' | 'modified' | 'deleted';
  added: number;
  removed: number;
  hunks: ReviewHunkView[];
  toolCallIds: string[];
}

export interface ReviewView {
  files: ReviewFileView[];
  /** Something was undone that "Undo last undo" can bring back. */
  canRedo: boolean;
}

export const reviewActions = ['keepHunk', 'undoHunk', 'keepFile', 'undoFile', 'keepAll', 'undoAll', 'redoUndo', 'openReview', 'openFile'] as const;
export type ReviewAction = (typeof reviewActions)[number];

export interface ReviewRequest {
  action: ReviewAction;
  path: string | null;
  hunkId: string | null;
}

export const emptyReview: ReviewView = { files: [], canRedo: false };
