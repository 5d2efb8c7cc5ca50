/**
 * Pending agent changes as the review feature shows them to the panel, with the user's comments and
 * reviewed marks. Plain data: src/contract publishes it to the webview.
 */

/** 'editor': came through fs/write_text_file into a buffer; 'disk': the agent wrote the disk itself. */
export type ChangeOriginView = 'editor' | 'disk';

export interface ReviewHunkView {
  id: string;
  /** 0-based first line of the hunk in the current text. */
  currentStart: number;
  /** 0-based first line of the hunk in the text before the change (for the old line numbers). */
  baseStart?: number;
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
  /** Something was undone that "Redo" can bring back. */
  canRedo: boolean;
  /**
   * The panel's own review state for the conversation in front: a review source leaves it out,
   * the panel adds it (see ReviewFeedback in src/panel).
   */
  feedback?: ReviewFeedbackView;
}

/** Where a commented hunk is, as last seen: 1-based lines of the current file. */
export interface CommentPlaceView {
  /** First line of the hunk in the current file. */
  line: number;
  /** How many lines the hunk has in the current file (0: it only removed lines, before `line`). */
  lineCount: number;
  /** How many lines it removed. */
  removedCount: number;
  /** The hunk's removed and added lines, the first few of each (see the counts). */
  removed: string[];
  added: string[];
}

/** A comment on one hunk, waiting to go to the agent with the next message. */
export interface ReviewCommentView {
  id: string;
  path: string;
  /** The file relative to the workspace, as the agent is told. */
  label: string;
  hunkId: string;
  text: string;
  place: CommentPlaceView;
  /** False once the hunk is no longer pending (kept, undone or changed since): `place` is as last seen. */
  pending: boolean;
}

export interface ReviewFeedbackView {
  /** The conversation's comments, oldest first. */
  comments: ReviewCommentView[];
  /** Pending hunks the user marked reviewed. */
  reviewedHunkIds: string[];
}

export const reviewActions = ['keepHunk', 'undoHunk', 'keepFile', 'undoFile', 'keepAll', 'undoAll', 'redoUndo', 'openReview', 'openFile'] as const;
export type ReviewAction = (typeof reviewActions)[number];

export interface ReviewRequest {
  action: ReviewAction;
  path: string | null;
  hunkId: string | null;
}
