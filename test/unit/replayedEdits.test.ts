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
import { reviewedFiles } from '../support/reviewHarness';
import { scriptedEnvironment, scriptedSession, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

function replayedToolCalls(session: SessionController): string[] {
  return session.thread.snapshot().flatMap((entry) => (entry.kind === 'toolCall' ? [`${entry.tool.title}: ${entry.tool.status}`] : []));
}

function notices(session: SessionController): string[] {
  return session.thread.snapshot().flatMap((entry) => (entry.kind === 'notice' ? [entry.text] : []));
}

/** Sessions of one workspace, sharing one ledger as a window's conversations do. */
function workspace(t: TestScope, env: Record<string, string>) {
  const environment = scriptedEnvironment(t);
  const files = reviewedFiles(environment.workspaceRoot);
  environment.services = { createFs: files.createFs };
  return { ...files, folder: environment.workspaceRoot, session: () => scriptedSession(t, { environment, env }) };
}

for (const [when, env] of [['before it answers', {}], ['after it answers, as Gemini CLI does', { SCRIPTED_AGENT_LATE_REPLAY: '1' }]] as const) {
  describe(`a loaded session's replayed edits, replayed ${when}`, () => {
    test('a kept change stays kept; a new edit after the load is reviewed as before', async (t) => {
      const w = workspace(t, env);
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
