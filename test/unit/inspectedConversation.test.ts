import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReviewFileView, ReviewView } from '../../src/review/pendingChanges';
import { inspectedConversation } from '../../src/inspector/panel/inspectedConversation';
import type { ReviewSource } from '../../src/review/reviewSource';
import { toDisposable } from '../../src/util/disposable';
import { scriptedSession } from '../support/sessionBuilders';

function reviewOf(files: Partial<ReviewFileView>[]): ReviewSource {
  const view: ReviewView = { files: files.map((file) => ({ path: '', label: '', origin: 'disk', status: 'modified', added: 1, removed: 0, hunks: [], toolCallIds: [], ...file })), canRedo: false };
  return { view: () => view, onDidChange: () => toDisposable(() => undefined), act: async () => undefined, takePromptNotes: () => [] };
}

describe('the conversation as the inspector sees it', () => {
  test('none before a session opened; then its session, its own changed files and its cards', async (t) => {
    const session = scriptedSession(t);
    const review = reviewOf([{ path: '/w/mine.ts', toolCallIds: ['read-1'] }, { path: '/w/gone.ts', status: 'deleted', toolCallIds: ['read-1'] }, { path: '/w/other.ts', toolCallIds: ['elsewhere'] }]);
    const sources = { review, permissionPolicy: null, workspaceRoots: () => ['/w'] };
    assert.equal(inspectedConversation(session, sources), null);
    await session.prompt('tool');
    const inspected = inspectedConversation(session, sources);
    assert.ok(inspected);
    assert.deepEqual([...inspected.sessionIds], [session.currentSessionId]);
    assert.equal(inspected.label, session.agent.label);
    assert.deepEqual(inspected.files(), [{ path: '/w/mine.ts', origin: 'disk', deleted: false, toolCallIds: ['read-1'] }, { path: '/w/gone.ts', origin: 'disk', deleted: true, toolCallIds: ['read-1'] }]);
    assert.ok(inspected.hasToolCall('read-1'));
    assert.ok(!inspected.hasToolCall('elsewhere'));
    assert.deepEqual(inspected.permissions(), { projectRules: [], tandemGrants: [] });
    await session.stopAgent();
    assert.deepEqual([...(inspectedConversation(session, sources)?.sessionIds ?? [])], [...inspected.sessionIds], 'still the session it last opened');
  });
});
