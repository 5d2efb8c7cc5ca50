/**
 * Review feedback as stored across window reloads: the comments not sent yet, per conversation,
 * and the reviewed marks, each with the place of its hunk as last seen. Hunk ids alone are not
 * enough to come back: a ledger that could not be restored numbers its hunks from the start
 * again, so a mark or comment is matched to its hunk again only where the hunk there still reads
 * the same (same file, same lines, same change).
 */
import { z } from 'zod';
import { MAX_COMMENT_CHARS, MAX_COMMENTS_PER_MESSAGE } from './commentLimits';
import type { CommentPlaceView, ReviewCommentView } from '../pendingChanges';

export const FEEDBACK_STATE_VERSION = 1;

const place = z.object({
  line: z.number().int().min(1),
  lineCount: z.number().int().min(0),
  removedCount: z.number().int().min(0),
  removed: z.array(z.string()),
  added: z.array(z.string()),
});

const comment = z.object({
  id: z.string().min(1).max(200),
  path: z.string().min(1).max(4096),
  label: z.string().max(4096),
  hunkId: z.string().min(1).max(200),
  text: z.string().min(1).max(MAX_COMMENT_CHARS),
  place,
  pending: z.boolean(),
});

const feedbackState = z.object({
  version: z.literal(FEEDBACK_STATE_VERSION),
  nextCommentId: z.number().int().min(1),
  comments: z.array(z.tuple([z.string().min(1), z.array(comment).max(MAX_COMMENTS_PER_MESSAGE)])),
  reviewed: z.array(z.object({ hunkId: z.string().min(1).max(200), path: z.string().min(1).max(4096), place })),
});

export type ReviewFeedbackState = z.infer<typeof feedbackState>;

/** Where a review source keeps the panel's review state; `read` gives back what `write` stored last, if anything. */
export interface FeedbackStore {
  read(): unknown;
  write(state: ReviewFeedbackState): void;
}

/** The stored state, or null when there is none or it is not one this version wrote. */
export function readFeedbackState(value: unknown): ReviewFeedbackState | null {
  const parsed = feedbackState.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A hunk as it is now still reads as it did when a comment or mark was left on it. */
export function samePlace(then: CommentPlaceView, now: CommentPlaceView): boolean {
  return JSON.stringify(place.parse(then)) === JSON.stringify(place.parse(now));
}

/** What a stored comment is once its hunk is looked up again. */
export function restoredComment(stored: ReviewCommentView, now: CommentPlaceView | undefined, path: string | undefined): ReviewCommentView {
  return { ...stored, place: { ...stored.place }, pending: now !== undefined && path === stored.path && samePlace(stored.place, now) };
}
