/**
 * A loaded session replays its history, edit tool calls and their diffs included (Gemini CLI,
 * Claude Code). Those edits were made in an earlier session: what the user did with them since
 * (kept, undone) stands, and the replay puts nothing up for review again, whether it comes
 * before the agent answers `session/load` or after (Gemini CLI). Through the real session, disk
 * tracker and ledger, with the scripted agent writing the disk itself.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { SessionController } from '../../src/conversation/sessionController';
import { reviewedScriptedWorkspace as workspace } from '../support/reviewHarness';
import { waitFor } from '../support/waitFor';

function replayedToolCalls(session: SessionController): string[] {
  return session.thread.snapshot().flatMap((entry) => (entry.kind === 'toolCall' ? [`${entry.tool.title}: ${entry.tool.status}`] : []));
}

function notices(session: SessionController): string[] {
  return session.thread.snapshot().flatMap((entry) => (entry.kind === 'notice' ? [entry.text] : []));
}

const GEMINI_LOAD = { SCRIPTED_AGENT_GEMINI_LOAD: '1' };

/** A session whose agent wrote `notes.txt` ("first" to "second") on disk itself, and whose change the user kept. */
async function keptEdit(w: ReturnType<typeof workspace>): Promise<{ path: string; sessionId: string }> {
  const path = join(w.folder, 'notes.txt');
  writeFileSync(path, 'first\n');
  const first = w.session();
  await first.prompt('disk-edit notes.txt second');
  assert.equal(readFileSync(path, 'utf8'), 'second\n');
  assert.deepEqual(w.ledger.files().map((file) => [file.path, file.origin]), [[path, 'disk']], 'the live edit is in review');
  w.ledger.keepAll();
  const sessionId = first.currentSessionId;
  assert.ok(sessionId);
  await first.stopAgent();
  return { path, sessionId };
}

for (const [when, env] of [['before it answers', {}], ['after it answers, as Gemini CLI does', GEMINI_LOAD]] as const) {
  describe(`a loaded session's replayed edits, replayed ${when}`, () => {
    test('a kept change stays kept; a new edit after the load is reviewed as before', async (t) => {
      const w = workspace(t, env);
      const { path, sessionId } = await keptEdit(w);

      const loaded = w.session();
      assert.ok(await loaded.openExisting({ kind: 'load', sessionId }));
      await waitFor(() => replayedToolCalls(loaded).length === 1, 'the replayed edit');
      assert.deepEqual(replayedToolCalls(loaded), ['Write notes.txt: completed']);
      // The last update of the replay is applied: anything it would have recorded is recorded by now.
      await loaded.prompt('echo after the load');
      assert.deepEqual(w.ledger.files(), [], 'the kept change is not back in review');
      assert.deepEqual(notices(loaded), []);
      assert.equal(readFileSync(path, 'utf8'), 'second\n');

      await loaded.prompt('disk-edit notes.txt third');
      const [file] = w.ledger.files();
      assert.equal(file?.path, path);
      assert.equal(w.ledger.currentText(path), 'third\n');
      assert.deepEqual(w.ledger.undoAll().map((write) => [write.path, write.text]), [[path, 'second\n']], 'undone, it goes back to what the kept change left');
    });
  });
}

describe('a kept conversation continued by a prompt, on an agent that can only load (Gemini CLI)', () => {
  test('the replay comes during the prompt\'s turn: the kept change stays kept', async (t) => {
    const w = workspace(t, GEMINI_LOAD);
    const { path, sessionId } = await keptEdit(w);
    const continued = w.session();
    continued.continueLater(sessionId);
    await continued.prompt('echo still there?');
    await waitFor(() => replayedToolCalls(continued).length === 1, 'the replayed edit');
    await continued.prompt('echo once more');
    assert.equal(continued.currentSessionId, sessionId, 'the earlier session, loaded');
    assert.deepEqual(w.ledger.files(), [], 'the kept change is not back in review');
    assert.deepEqual(notices(continued), []);
    assert.equal(readFileSync(path, 'utf8'), 'second\n');
  });
});
