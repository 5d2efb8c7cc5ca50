// The bounds of review feedback (src/review/comments/commentLimits.ts) without the schemas that check
// them: the webview needs the numbers, and importing the schemas would put zod in its bundle.
export { MAX_COMMENT_CHARS, MAX_COMMENTS_PER_MESSAGE } from '../review/comments/commentLimits';
