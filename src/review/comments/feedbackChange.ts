/**
 * What the user says about pending changes besides keep and undo: comments for the agent and
 * reviewed marks, one change at a time. src/contract/reviewMessages.ts checks the webview's
 * messages against it.
 */
export type ReviewFeedbackChange =
  | { kind: 'addComment'; path: string; hunkId: string; text: string }
  | { kind: 'editComment'; commentId: string; text: string }
  | { kind: 'removeComment'; commentId: string }
  /** `hunkId` null: every pending hunk of the file. */
  | { kind: 'markReviewed'; path: string; hunkId: string | null; reviewed: boolean }
  /** Keep every pending hunk marked reviewed. */
  | { kind: 'keepReviewed' };
