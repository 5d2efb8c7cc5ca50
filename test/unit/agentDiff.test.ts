import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentDiffView, permissionChangeView } from '../../src/contract/agentDiff';
import type { ToolCallView } from '../../src/thread/entries';
import { newToolCallView } from '../../src/thread/toolCallMapping';
import { scriptedPresenter } from '../support/sessionBuilders';
import { longFileRewrite } from '../support/slowInputs';
import { waitFor } from '../support/waitFor';

const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}\n`).join('');

describe('the diff an agent sent, as the panel shows it', () => {
  test('a compact unified diff: changed lines with three lines of context, 1-based starts, counts', () => {
    const view = agentDiffView({ path: '/w/a.ts', oldText: lines(20, 'line '), newText: lines(20, 'line ').replace('line 10\n', 'line ten\n') });
    assert.deepEqual(view, {
      path: '/w/a.ts', newFile: false, added: 1, removed: 1, omittedLines: 0,
      hunks: [{ oldStart: 8, newStart: 8, lines: [
        { kind: 'context', text: 'line 7' }, { kind: 'context', text: 'line 8' }, { kind: 'context', text: 'line 9' },
        { kind: 'removed', text: 'line 10' }, { kind: 'added', text: 'line ten' },
        { kind: 'context', text: 'line 11' }, { kind: 'context', text: 'line 12' }, { kind: 'context', text: 'line 13' },
      ] }],
    });
  });

  test('a new file is all added; CRLF shows without the CR; long lines are cut', () => {
    const created = agentDiffView({ path: 'n.md', oldText: null, newText: `# Title\r\n${'x'.repeat(1500)}\r\n` });
    assert.equal(created.newFile, true);
    assert.deepEqual(created.hunks[0]?.lines.map((line) => [line.kind, line.text.length]), [['added', 7], ['added', 1000 + '… (500 more characters)'.length]]);
  });

  // How long it takes: bench/hostileInputs (agentDiff.rewrite5kMs).
  test('a rewritten long file is shown as replaced and bounded in lines', () => {
    const view = agentDiffView(longFileRewrite());
    assert.deepEqual([view.added, view.removed], [5000, 5000]);
    assert.equal(view.hunks.flatMap((hunk) => hunk.lines).length, 400);
    assert.equal(view.omittedLines, 9600);
  });

  test('a permission on an edit with no diff says so plainly; other kinds have no change to show', () => {
    const tool = (patch: Partial<ToolCallView>): ToolCallView => ({ ...newToolCallView('t1'), ...patch });
    assert.deepEqual(permissionChangeView(tool({ toolKind: 'edit' })), { kind: 'noDiff', sentence: 'The agent sent no diff for this edit: you cannot see the change before allowing it.' });
    assert.deepEqual(permissionChangeView(tool({ toolKind: 'delete' })), { kind: 'noDiff', sentence: 'The agent sent no diff for this deletion: you cannot see the change before allowing it.' });
    assert.equal(permissionChangeView(tool({ toolKind: 'execute' })), null);
    assert.equal(permissionChangeView(tool({ toolKind: 'read' })), null);
  });

  test('the permission an agent asks for an edit carries its diff, or says it sent none', async (t) => {
    const panel = scriptedPresenter(t);
    await panel.ready();
    const asking = () => panel.session().thread.findLastToolCall((tool) => tool.permission !== null);
    void panel.presenter.sendPrompt('conversation');
    await waitFor(() => asking() !== undefined, 'the edit asks');
    const withDiff = permissionChangeView(asking() as ToolCallView);
    assert.equal(withDiff?.kind, 'diffs');
    assert.deepEqual(withDiff?.kind === 'diffs' && withDiff.diffs.map((diff) => [diff.path.endsWith('src/greeting.ts'), diff.hunks[0]?.lines]), [[true, [
      { kind: 'removed', text: 'export const greeting = "hello";' }, { kind: 'added', text: 'export const greeting = "hello, world";' }]]]);
    await panel.presenter.cancelTurn();
    await waitFor(() => !panel.session().turnView.running, 'the turn to stop');

    void panel.presenter.sendPrompt('ask edit src/other.ts');
    await waitFor(() => asking() !== undefined, 'the edit without a diff asks');
    assert.deepEqual(permissionChangeView(asking() as ToolCallView), { kind: 'noDiff', sentence: 'The agent sent no diff for this edit: you cannot see the change before allowing it.' });
    await panel.presenter.cancelTurn();
  });
});
