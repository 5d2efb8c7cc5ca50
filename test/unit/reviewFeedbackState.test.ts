import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChangeLedger } from '../../src/review/changeLedger';
import { ReviewFeedback } from '../../src/review/comments/reviewFeedback';
import type { FeedbackStore, ReviewFeedbackState } from '../../src/review/comments/reviewFeedbackState';
import { ledgerReviewSource } from '../support/ledgerReviewSource';

const WORKSPACE = '/w';
const A = '/w/src/a.ts';
const B = '/w/src/b.ts';

/** Workspace state as the editor keeps it: a JSON copy of what was written last. */
function memoryStore(): FeedbackStore & { saved(): unknown; put(value: unknown): void } {
  let saved: string | undefined;
  return {
    read: () => (saved === undefined ? undefined : JSON.parse(saved)),
    write: (state: ReviewFeedbackState) => {
      saved = JSON.stringify(state);
    },
    saved: () => (saved === undefined ? undefined : JSON.parse(saved)),
    put: (value: unknown) => {
      saved = JSON.stringify(value);
    },
  };
}

/** The panel's feedback over `ledger`, with `active` as the conversation in front. */
function feedbackOver(ledger: ChangeLedger, store: FeedbackStore, active = () => 'tab-1'): ReviewFeedback {
  return new ReviewFeedback({ ...ledgerReviewSource(ledger, WORKSPACE), feedbackStore: store }, active);
}

/** A window reload: the ledger comes back from its snapshot, the feedback from its store. */
function reload(ledger: ChangeLedger, store: FeedbackStore): { ledger: ChangeLedger; feedback: ReviewFeedback } {
  const restored = ChangeLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON())));
  return { ledger: restored, feedback: feedbackOver(restored, store) };
}

const hunkIds = (ledger: ChangeLedger, path: string) => ledger.file(path)?.hunks.map((hunk) => hunk.id) ?? [];

describe('review feedback survives a window reload', () => {
  test('comments not sent yet (per conversation) and reviewed marks come back with the pending changes; sent ones do not', (t) => {
    const ledger = new ChangeLedger();
    ledger.record(A, { before: 'a\nb\nc\n', after: 'a\nB\nc\nD\n', origin: 'editor' });
    ledger.record(B, { before: 'x\n', after: 'X\n', origin: 'disk' });
    const store = memoryStore();
    const before = feedbackOver(ledger, store);
    t.after(() => before.dispose());
    before.keepConversations(['tab-1', 'tab-2']);
    const [first = '', second = ''] = hunkIds(ledger, A);
    assert.equal(before.addComment(A, first, 'Name this constant.'), true);
    assert.equal(before.addComment(B, hunkIds(ledger, B)[0] ?? '', 'Why upper case?', 'tab-2'), true);
    before.setReviewed(A, second, true);

    const { feedback } = reload(ledger, store);
    t.after(() => feedback.dispose());
    // The panel restores its tabs one at a time: the second one's comments wait for it.
    feedback.keepConversations(['tab-1']);
    feedback.keepConversations(['tab-1', 'tab-2']);
    assert.deepEqual(feedback.view('tab-1').feedback?.comments.map((comment) => [comment.label, comment.place.line, comment.text, comment.pending]), [['src/a.ts', 2, 'Name this constant.', true]]);
    assert.deepEqual(feedback.view('tab-2').feedback?.comments.map((comment) => [comment.label, comment.text, comment.pending]), [['src/b.ts', 'Why upper case?', true]]);
    assert.deepEqual(feedback.view().feedback?.reviewedHunkIds, [second]);

    const sent = feedback.takeForPrompt('tab-1');
    assert.match(sent?.context ?? '', /src\/a\.ts, line 2\nYour change there:\n- b\n\+ B\nComment: Name this constant\./);
    feedback.keepConversations(['tab-1']);
    const again = reload(ledger, store).feedback;
    t.after(() => again.dispose());
    assert.deepEqual(again.view('tab-1').feedback?.comments, [], 'a comment reaches the agent once');
    assert.deepEqual(again.view('tab-2').feedback?.comments, [], 'a closed conversation\'s comments went with it');
    assert.equal(again.addComment(A, first, 'New one.'), true);
    assert.equal(again.view().feedback?.comments[0]?.id, 'c3', 'comment ids go on from the stored ones');
  });

  test('a mark or comment whose hunk is gone is dropped or kept as last seen, never put on another hunk that took its id', (t) => {
    const ledger = new ChangeLedger();
    ledger.record(A, { before: 'a\nb\n', after: 'a\nB\n', origin: 'editor' });
    const store = memoryStore();
    const before = feedbackOver(ledger, store);
    t.after(() => before.dispose());
    const [id = ''] = hunkIds(ledger, A);
    before.addComment(A, id, 'Keep the lower case.');
    before.setReviewed(A, id, true);

    // The ledger could not be restored: a new one numbers its hunks from the start, so the same id now means another change.
    const fresh = new ChangeLedger();
    fresh.record(A, { before: 'a\nb\n', after: 'A\nb\n', origin: 'editor' });
    assert.deepEqual(hunkIds(fresh, A), [id]);
    const feedback = feedbackOver(fresh, store);
    t.after(() => feedback.dispose());
    assert.deepEqual(feedback.view().feedback?.reviewedHunkIds, [], 'the mark was for another change');
    const [comment] = feedback.view().feedback?.comments ?? [];
    assert.deepEqual([comment?.pending, comment?.place.line, comment?.place.added], [false, 2, ['B']], 'the comment keeps the place it was written on');
    fresh.updateCurrent(A, 'A\nb\nc\n');
    assert.equal(feedback.view().feedback?.comments[0]?.pending, false, 'and does not follow the other change later');
    assert.match(feedback.takeForPrompt('tab-1')?.context ?? '', /src\/a\.ts, line 2 \(as last seen: this change is no longer pending/);
  });

  test('stored state that is not one this version wrote is ignored', (t) => {
    const ledger = new ChangeLedger();
    ledger.record(A, { before: 'a\n', after: 'A\n', origin: 'editor' });
    const store = memoryStore();
    store.put({ version: 1, nextCommentId: 1, comments: [['tab-1', [{ id: 'c1', path: A, hunkId: 'h1', text: '' }]]], reviewed: [] });
    const feedback = feedbackOver(ledger, store);
    t.after(() => feedback.dispose());
    assert.deepEqual(feedback.view().feedback, { comments: [], reviewedHunkIds: [] });
    feedback.setReviewed(A, null, true);
    assert.deepEqual((store.saved() as ReviewFeedbackState).reviewed.map((mark) => [mark.path, mark.place.added]), [[A, ['A']]], 'the next change is stored over it');
  });
});
