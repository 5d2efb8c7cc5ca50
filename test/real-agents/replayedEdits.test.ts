/**
 * Real agents replay a loaded session's edit tool calls, diffs and all. An edit the user kept in
 * the session before is not put up for review again by the replay: through the real agent, the
 * real session, disk tracker and ledger; nor is it in the fidelity report as this conversation's.
 *
 * Claude Code replays the transcript before it answers `session/load`. Gemini CLI replays after
 * its answer, but its load of a session started over ACP fails here ("No previous sessions found
 * for this project", though its chats folder holds the session): test/unit/replayedEdits.test.ts
 * has that order, with the scripted agent.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { SessionController } from '../../src/conversation/sessionController';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { reportOf } from '../support/conversationReportOf';
import { claudeAgentSpec } from '../support/real-agents';
import { reviewedRealAgentSession, startScriptedRealAgent } from '../support/realAgentRun';
import { allowingPermissions } from '../support/reviewHarness';
import { waitFor } from '../support/waitFor';

/** The statuses of the thread's edit cards. */
function editCards(session: SessionController): string[] {
  return session.thread.snapshot().flatMap((entry) => (entry.kind === 'toolCall' && entry.tool.toolKind === 'edit' ? [entry.tool.status] : []));
}

describe('Claude Code: a loaded session\'s replayed edit', () => {
  test('an edit kept before the load stays kept', { timeout: 300_000 }, async (t) => {
    const running = await startScriptedRealAgent(startClaudeModelServer, claudeAgentSpec);
    const path = join(running.spec.cwd, 'replayed.txt');
    writeFileSync(path, 'alpha\nbeta\n');
    const first = reviewedRealAgentSession(t, running);
    running.model.enqueue({ toolUses: [{ name: 'Write', input: { file_path: path, content: 'alpha\nBETA\n' } }] }, { text: 'Written.' });
    await allowingPermissions(first.session, first.session.prompt('Write replayed.txt'));
    assert.equal(readFileSync(path, 'utf8'), 'alpha\nBETA\n');
    assert.equal(first.ledger.files().length, 1, 'the edit was in review');
    first.ledger.keepAll();
    const sessionId = first.session.currentSessionId;
    assert.ok(sessionId);
    await first.session.stopAgent();

    const again = reviewedRealAgentSession(t, running);
    const loaded = await again.session.openExisting({ kind: 'load', sessionId });
    assert.ok(loaded, `Claude Code loaded the session: ${JSON.stringify(again.session.connectionView)}`);
    // The replayed edit has ended in the thread: the tracker, told after the thread, compared it then.
    await waitFor(() => editCards(again.session).some((status) => status === 'completed'), 'the replayed edit, ended', 60_000);
    assert.deepEqual(again.ledger.files(), [], 'the replayed edit is not put up for review');
    assert.equal(readFileSync(path, 'utf8'), 'alpha\nBETA\n');
    // Nor is it in the loaded conversation's fidelity report as an edit of its own (one that never asked).
    const { report } = await reportOf(again.session, again.frames.frames(), again.ledger, running.spec.cwd);
    assert.ok(report.replayedToolCalls >= 1, `the replayed Write is counted apart: ${report.summary}`);
    assert.deepEqual(report.permissions.filter((row) => row.kind === 'edit'), [], 'no edit of this conversation');
    assert.deepEqual(report.files, []);
  });
});
