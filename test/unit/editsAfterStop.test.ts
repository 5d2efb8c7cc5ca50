/**
 * Stop ends the turn in the panel when the agent does not answer within the grace period; an
 * agent that ignores it may still be at work, and an edit it makes on disk then is still put up
 * for review. Through the real session, disk tracker and ledger, with the scripted agent writing
 * the disk itself.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { reviewedScriptedWorkspace } from '../support/reviewHarness';
import { waitFor } from '../support/waitFor';

describe('an agent that goes on after Stop', () => {
  test('its edit after the turn ended here (no answer within the grace) is in review', { timeout: 30_000 }, async (t) => {
    const w = reviewedScriptedWorkspace(t);
    const path = join(w.folder, 'notes.txt');
    writeFileSync(path, 'before\n');
    const session = w.session();
    const prompt = session.prompt('stubborn notes.txt after the stop');
    await waitFor(() => session.turnView.running && session.live, 'the turn under way');
    await session.cancel();
    await waitFor(() => !session.turnView.running, 'the turn ended here', 10_000);
    await prompt;
    assert.equal(readFileSync(path, 'utf8'), 'after the stop\n', 'the agent wrote after the turn ended');
    assert.deepEqual(w.ledger.files().map((file) => [file.path, file.origin]), [[path, 'disk']]);
    assert.deepEqual(w.ledger.undoAll().map((write) => [write.path, write.text]), [[path, 'before\n']]);
  });
});
