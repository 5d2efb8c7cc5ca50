/**
 * The review state in numbers and words, for every place that shows it (the changes bar, its
 * rows, the comment list) and for the context the agent is sent, so they all read the same.
 */
import type { CommentPlaceView, ReviewFileView, ReviewView } from './pendingChanges';

export interface HunkCounts {
  reviewed: number;
  hunks: number;
}

export interface ReviewProgress extends HunkCounts {
  /** Per pending file (by path). */
  files: ReadonlyMap<string, HunkCounts>;
}

/** Hunks marked reviewed, over all pending files and per file. */
export function reviewProgress(view: ReviewView): ReviewProgress {
  const reviewed = new Set(view.feedback?.reviewedHunkIds ?? []);
  const files = new Map<string, HunkCounts>();
  let total = 0;
  let done = 0;
  for (const file of view.files) {
    const counts = fileProgress(file, (hunkId) => reviewed.has(hunkId));
    files.set(file.path, counts);
    total += counts.hunks;
    done += counts.reviewed;
  }
  return { reviewed: done, hunks: total, files };
}

export function fileProgress(file: ReviewFileView, isReviewed: (hunkId: string) => boolean): HunkCounts {
  return { reviewed: file.hunks.filter((hunk) => isReviewed(hunk.id)).length, hunks: file.hunks.length };
}

/** "2 of 5 hunks reviewed". */
export function progressText(counts: HunkCounts): string {
  return `${counts.reviewed} of ${counts.hunks} ${counts.hunks === 1 ? 'hunk' : 'hunks'} reviewed`;
}

/** Where a hunk is in the current file: "lines 10-12", "line 4", or "removed lines before line 7". */
export function placeText(place: CommentPlaceView): string {
  if (place.lineCount === 0) return `removed lines before line ${place.line}`;
  if (place.lineCount === 1) return `line ${place.line}`;
  return `lines ${place.line}-${place.line + place.lineCount - 1}`;
}

/** "1 comment" / "3 comments". */
export function commentCountText(count: number): string {
  return `${count} ${count === 1 ? 'comment' : 'comments'}`;
}
