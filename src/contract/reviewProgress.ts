/** The review state in numbers and words (src/review/reviewProgress.ts), published to the webview. */
export { reviewProgress, fileProgress, progressText, placeText, commentCountText, type HunkCounts, type ReviewProgress } from '../review/reviewProgress';
