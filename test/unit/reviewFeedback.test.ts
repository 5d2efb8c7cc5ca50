import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { parseWebviewMessage } from '../../src/contract/messages';
import { MAX_COMMENT_CHARS } from '../../src/review/comments/commentLimits';
import { reviewProgress } from '../../src/review/reviewProgress';
import type { ReviewView } from '../../src/review/pendingChanges';
import { ChangeLedger } from '../../src/review/changeLedger';
import { ledgerReviewSource } from '../support/ledgerReviewSource';
import { scriptedPresenter, tempWorkspace, type ScriptedPresenter, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

interface ReviewPanel extends ScriptedPresenter {
  ledger: ChangeLedger;
  /** A pending change of `name` (in the workspace), and its hunk ids in order. */
  change(name: string, before: string, after: string): { path: string; hunks: string[] };
  review(): ReviewView;
  /** The text blocks of every session/prompt the agent received, in order. */
  prompts(): string[][];
}

async function reviewPanel(t: TestScope): Promise<ReviewPanel> {
  const workspace = tempWorkspace(t);
  const ledger = new ChangeLedger();
  const panel = scriptedPresenter(t, { workspace, review: ledgerReviewSource(ledger, workspace) });
  await panel.ready();
  return {
    ...panel,
    ledger,
    change(name, before, after) {
      const path = join(workspace, name);
      ledger.record(path, { before, after, origin: 'editor' });
      return { path, hunks: ledger.file(path)?.hunks.map((hunk) => hunk.id) ?? [] };
    },
    review: () => panel.presenter.state().review,
    prompts: () => panel.environment.frames.frames()
      .filter((frame) => frame.direction === 'out' && frame.text.includes('"session/prompt"'))
      .map((frame) => (JSON.parse(frame.text) as { params: { prompt: { type: string; text?: string }[] } }).params.prompt.flatMap((block) => (block.text === undefined ? [] : [block.text]))),
  };
}

async function send(panel: ReviewPanel, text: string): Promise<void> {
  const before = panel.prompts().length;
  await panel.presenter.handle({ type: 'sendPrompt', text });
  await waitFor(() => panel.prompts().length > before && !panel.session().turnView.running, 'the turn to end');
}

const comment = (path: string, hunkId: string, text: string) => ({ type: 'reviewFeedback' as const, change: { kind: 'addComment' as const, path, hunkId, text } });

describe('review comments for the agent', () => {
  test('several comments go with the next prompt as one block (file, current lines, the change, the comment), exactly once, and the thread says so', async (t) => {
    const panel = await reviewPanel(t);
    const { path, hunks: [first = '', second = ''] } = panel.change('src/a.ts', 'a\nb\nc\n', 'a\nB\nc\nd\ne\n');
    await panel.presenter.handle(comment(path, first, 'Use a constant here.'));
    await panel.presenter.handle(comment(path, second, 'Why two lines?'));
    assert.deepEqual(panel.review().feedback?.comments.map((item) => [item.label, item.place.line, item.text, item.pending]),
      [['src/a.ts', 2, 'Use a constant here.', true], ['src/a.ts', 4, 'Why two lines?', true]]);
    const shown = panel.posted.filter((message) => message.type === 'reviewChanged').at(-1);
    assert.equal(shown?.type === 'reviewChanged' && shown.review.feedback?.comments.length, 2, 'the panel is told');

    await send(panel, 'echo please fix');
    assert.deepEqual(panel.prompts().at(-1), ['echo please fix', [
      '[Review comments from the user on your changes (2 comments). Line numbers are those of the files as they are now. Act on them along with the message above.]',
      '1. src/a.ts, line 2\nYour change there:\n- b\n+ B\nComment: Use a constant here.',
      '2. src/a.ts, lines 4-5\nYour change there:\n+ d\n+ e\nComment: Why two lines?',
    ].join('\n\n')]);
    const entries = panel.session().thread.snapshot();
    const user = entries.findIndex((entry) => entry.kind === 'user');
    assert.deepEqual(entries[user], { ...entries[user], text: 'echo please fix' }, 'the message in the thread is the user\'s own text');
    assert.deepEqual(entries[user + 1]?.kind === 'notice' && [entries[user + 1]?.kind, (entries[user + 1] as { text: string }).text],
      ['notice', 'Sent with this message: 2 comments on changes (src/a.ts line 2; src/a.ts lines 4-5).']);
    assert.deepEqual(panel.review().feedback?.comments, [], 'sent comments are cleared');

    await send(panel, 'echo again');
    assert.deepEqual(panel.prompts().at(-1), ['echo again'], 'a comment reaches the agent once');
  });

  test('a comment follows its hunk while it moves; once the hunk is no longer pending it keeps its last place and says so', async (t) => {
    const panel = await reviewPanel(t);
    const { path, hunks: [inserted = '', appended = ''] } = panel.change('notes.md', 'a\nb\nc\n', 'a\nnew\nb\nc\nd\n');
    await panel.presenter.handle(comment(path, appended, 'Keep the list short.'));
    await panel.presenter.handle(comment(path, inserted, 'Good.'));
    assert.equal(panel.review().feedback?.comments[0]?.place.line, 5);
    await panel.presenter.handle({ type: 'reviewAction', action: 'undoHunk', path, hunkId: inserted });
    assert.deepEqual(panel.review().feedback?.comments.map((item) => [item.place.line, item.pending]), [[4, true], [2, false]]);
    await panel.presenter.handle({ type: 'reviewFeedback', change: { kind: 'editComment', commentId: panel.review().feedback?.comments[1]?.id ?? '', text: 'Why was this here?' } });

    await send(panel, 'echo go');
    const [, context = ''] = panel.prompts().at(-1) ?? [];
    assert.match(context, /1\. notes\.md, line 4\nYour change there:\n\+ d\nComment: Keep the list short\./);
    assert.match(context, /2\. notes\.md, line 2 \(as last seen: this change is no longer pending, it was kept, undone or edited since\)\nYour change there:\n\+ new\nComment: Why was this here\?/);
  });

  test('comments belong to their conversation, survive a reloaded panel, and can be removed', async (t) => {
    const panel = await reviewPanel(t);
    const { path, hunks: [hunk = ''] } = panel.change('a.txt', 'x\n', 'y\n');
    await panel.presenter.handle(comment(path, hunk, 'Not this.'));
    await panel.presenter.handle(comment(path, 'h999', 'No such hunk.'));
    assert.deepEqual(panel.review().feedback?.comments.map((item) => item.text), ['Not this.'], 'a hunk that is not pending takes no comment');
    panel.presenter.detachView();
    await panel.presenter.handle({ type: 'ready' });
    const snapshot = panel.posted.filter((message) => message.type === 'snapshot').at(-1);
    assert.deepEqual(snapshot?.type === 'snapshot' && snapshot.state.review.feedback?.comments.map((item) => item.text), ['Not this.'], 'a reloaded panel gets them back');

    const first = panel.presenter.state().tabs.activeTabId;
    await panel.presenter.newSession();
    assert.deepEqual(panel.review().feedback?.comments, [], 'another conversation has its own');
    await panel.presenter.handle({ type: 'selectTab', tabId: first });
    const [kept] = panel.review().feedback?.comments ?? [];
    assert.equal(kept?.text, 'Not this.');
    await panel.presenter.handle({ type: 'reviewFeedback', change: { kind: 'removeComment', commentId: kept?.id ?? '' } });
    assert.deepEqual(panel.review().feedback?.comments, []);
    await send(panel, 'echo nothing attached');
    assert.deepEqual(panel.prompts().at(-1), ['echo nothing attached']);
  });

  test('the editor can comment through the same object: the conversation in front gets it', async (t) => {
    const panel = await reviewPanel(t);
    const { path, hunks: [hunk = ''] } = panel.change('b.txt', 'one\n', 'two\n');
    assert.equal(panel.presenter.reviewFeedback?.addComment(path, hunk, 'From the CodeLens.'), true);
    assert.equal(panel.presenter.reviewFeedback?.addComment(path, 'h404', 'Gone.'), false, 'a hunk that is not pending cannot be commented');
    assert.deepEqual(panel.review().feedback?.comments.map((item) => item.text), ['From the CodeLens.']);
  });

  test('comment messages are validated: text trimmed, not empty, bounded', () => {
    const parsed = parseWebviewMessage({ type: 'reviewFeedback', change: { kind: 'addComment', path: '/w/a.ts', hunkId: 'h1', text: '  Fix it  ' } });
    assert.deepEqual(parsed, { ok: true, message: { type: 'reviewFeedback', change: { kind: 'addComment', path: '/w/a.ts', hunkId: 'h1', text: 'Fix it' } } });
    for (const text of ['', '   ', 'x'.repeat(MAX_COMMENT_CHARS + 1)]) {
      assert.equal(parseWebviewMessage({ type: 'reviewFeedback', change: { kind: 'addComment', path: '/w/a.ts', hunkId: 'h1', text } }).ok, false, `${text.length} characters`);
    }
    assert.equal(parseWebviewMessage({ type: 'reviewFeedback', change: { kind: 'markReviewed', path: '/w/a.ts', hunkId: null, reviewed: 'yes' } }).ok, false);
  });
});

describe('reviewed marks', () => {
  test('hunks and files are marked reviewed and counted; a hunk that changes drops its mark; Keep all reviewed keeps only those', async (t) => {
    const panel = await reviewPanel(t);
    const a = panel.change('a.ts', 'a\nb\nc\n', 'A\nb\nC\n');
    const b = panel.change('b.ts', '1\n2\n', '1\n2\n3\n');
    const counts = () => {
      const progress = reviewProgress(panel.review());
      return { reviewed: progress.reviewed, hunks: progress.hunks, a: progress.files.get(a.path), b: progress.files.get(b.path) };
    };
    assert.deepEqual(counts(), { reviewed: 0, hunks: 3, a: { reviewed: 0, hunks: 2 }, b: { reviewed: 0, hunks: 1 } });
    const mark = (path: string, hunkId: string | null, reviewed = true) => panel.presenter.handle({ type: 'reviewFeedback', change: { kind: 'markReviewed', path, hunkId, reviewed } });

    await mark(a.path, a.hunks[1] ?? '');
    assert.deepEqual(counts(), { reviewed: 1, hunks: 3, a: { reviewed: 1, hunks: 2 }, b: { reviewed: 0, hunks: 1 } });
    await mark(b.path, null);
    assert.deepEqual(counts(), { reviewed: 2, hunks: 3, a: { reviewed: 1, hunks: 2 }, b: { reviewed: 1, hunks: 1 } });
    await mark(a.path, a.hunks[1] ?? '', false);
    await mark(a.path, null);
    assert.deepEqual(counts(), { reviewed: 3, hunks: 3, a: { reviewed: 2, hunks: 2 }, b: { reviewed: 1, hunks: 1 } });
    panel.presenter.detachView();
    await panel.presenter.handle({ type: 'ready' });
    const snapshot = panel.posted.filter((message) => message.type === 'snapshot').at(-1);
    assert.equal(snapshot?.type === 'snapshot' && snapshot.state.review.feedback?.reviewedHunkIds.length, 3, 'marks survive a reloaded panel');

    // The user edits the agent's last line of a.ts by hand: that hunk is new, and not reviewed.
    panel.ledger.updateCurrent(a.path, 'A\nb\nC!\n');
    assert.deepEqual(counts(), { reviewed: 2, hunks: 3, a: { reviewed: 1, hunks: 2 }, b: { reviewed: 1, hunks: 1 } });
    await panel.presenter.handle({ type: 'reviewFeedback', change: { kind: 'keepReviewed' } });
    assert.deepEqual(panel.ledger.files().map((file) => [relative(join(a.path, '..'), file.path), file.hunks.map((hunk) => hunk.added)]), [['a.ts', [['C!']]]]);
    assert.deepEqual(counts(), { reviewed: 0, hunks: 1, a: { reviewed: 0, hunks: 1 }, b: undefined });
  });
});
