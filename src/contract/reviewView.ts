/** Pending agent changes as the panel shows them (src/review/pendingChanges.ts, published here), and the empty states. */
import type { ReviewFeedbackView, ReviewView } from '../review/pendingChanges';
export { changeWords } from '../review/changeWords';

export {
  reviewActions, type ChangeOriginView, type ReviewHunkView, type ReviewFileView, type ReviewView, type CommentPlaceView, type ReviewCommentView,
  type ReviewFeedbackView, type ReviewAction, type ReviewRequest,
} from '../review/pendingChanges';

export const emptyReview: ReviewView = { files: [], canRedo: false };

export const emptyFeedback: ReviewFeedbackView = { comments: [], reviewedHunkIds: [] };
