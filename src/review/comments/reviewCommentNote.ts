/**
 * Review comments as the agent reads them: one text block ahead of the user's message that
 * names, for each comment, the file, its lines as the file is now, the agent's change there and
 * what the user said, so the agent can act on it without asking where.
 */
import type { CommentPlaceView, ReviewCommentView, ReviewHunkView } from '../pendingChanges';
import { commentCountText, placeText } from '../reviewProgress';

/** Lines of each side of a hunk kept with a comment; a longer hunk is cut (the agent can read the file). */
const EXCERPT_LINES = 20;
const EXCERPT_LINE_CHARS = 300;

/** Where a pending hunk is now, with the first lines of its change. */
export function placeOf(hunk: ReviewHunkView): CommentPlaceView {
  return {
    line: hunk.currentStart + 1,
    lineCount: hunk.added.length,
    removedCount: hunk.removed.length,
    removed: excerpt(hunk.removed),
    added: excerpt(hunk.added),
  };
}

function excerpt(lines: readonly string[]): string[] {
  return lines.slice(0, EXCERPT_LINES).map((line) => (line.length > EXCERPT_LINE_CHARS ? `${line.slice(0, EXCERPT_LINE_CHARS)}…` : line));
}

/** The block the agent gets with the next prompt. */
export function commentContext(comments: readonly ReviewCommentView[]): string {
  const intro = `[Review comments from the user on your changes (${commentCountText(comments.length)}). Line numbers are those of the files as they are now. Act on them along with the message above.]`;
  return [intro, ...comments.map(commentText)].join('\n\n');
}

/** The line the thread shows under the user's message, so what went to the agent is never hidden. */
export function commentSummary(comments: readonly ReviewCommentView[]): string {
  return `Sent with this message: ${commentCountText(comments.length)} on changes (${comments.map((comment) => `${comment.label} ${placeText(comment.place)}`).join('; ')}).`;
}

function commentText(comment: ReviewCommentView, index: number): string {
  const { place } = comment;
  const where = `${index + 1}. ${comment.label}, ${placeText(place)}${comment.pending ? '' : ' (as last seen: this change is no longer pending, it was kept, undone or edited since)'}`;
  return [where, 'Your change there:', ...changeLines(place), `Comment: ${comment.text}`].join('\n');
}

function changeLines(place: CommentPlaceView): string[] {
  return [
    ...place.removed.map((line) => `- ${line}`),
    ...more(place.removedCount - place.removed.length, 'removed'),
    ...place.added.map((line) => `+ ${line}`),
    ...more(place.lineCount - place.added.length, 'added'),
  ];
}

function more(count: number, what: string): string[] {
  return count > 0 ? [`… (${count} more ${what} ${count === 1 ? 'line' : 'lines'})`] : [];
}
