import { z } from 'zod';
import { MAX_COMMENT_CHARS } from '../review/comments/commentLimits';
import type { ReviewFeedbackChange } from '../review/comments/feedbackChange';

export { MAX_COMMENT_CHARS, MAX_COMMENTS_PER_MESSAGE } from '../review/comments/commentLimits';
export type { ReviewFeedbackChange } from '../review/comments/feedbackChange';

const path = z.string().min(1).max(4096);
const hunkId = z.string().min(1).max(200);
const commentId = z.string().min(1).max(200);
const text = z.string().trim().min(1).max(MAX_COMMENT_CHARS);

/**
 * What the user says about pending changes besides keep and undo: comments for the agent and
 * reviewed marks. One message type, its change named by `kind`; what passes is a ReviewFeedbackChange.
 */
export const reviewFeedbackChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('addComment'), path, hunkId, text }),
  z.object({ kind: z.literal('editComment'), commentId, text }),
  z.object({ kind: z.literal('removeComment'), commentId }),
  /** `hunkId` null: every pending hunk of the file. */
  z.object({ kind: z.literal('markReviewed'), path, hunkId: hunkId.nullable(), reviewed: z.boolean() }),
  /** Keep every pending hunk marked reviewed. */
  z.object({ kind: z.literal('keepReviewed') }),
]) satisfies z.ZodType<ReviewFeedbackChange>;

/** Webview -> host messages of review feedback, spread into the panel's union. */
export const reviewMessageSchemas = [
  z.object({ type: z.literal('reviewFeedback'), change: reviewFeedbackChangeSchema }),
] as const;
