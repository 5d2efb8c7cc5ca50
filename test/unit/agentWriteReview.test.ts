import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FsSessionContext } from '../../src/workspace/sessionContext';
import type { HunkView } from '../../src/review/types';
import { silentLogger } from '../../src/util/logger';
import { reviewedFiles } from '../support/reviewHarness';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

const SIX_LINES = Array.from({ length: 6 }, (_, i) => `line ${i}\n`).join('');

const session: FsSessionContext = {
  key: 'session-1',
  cwd: '',
  thread: { findLastToolCall: () => undefined, addNotice: () => undefined },
  logger: silentLogger,
  onUpdate: () => ({ dispose: () => undefined }),
  onPermissionRequest: () => ({ dispose: () => undefined }),
  agentInfo: () => null,
};

function shape(hunks: readonly HunkView[] | undefined) {
  return hunks?.map(({ baseStart, currentStart, removed, added }) => ({ baseStart, currentStart, removed, added }));
}

/** The agent never cancels these requests. */
const never = new AbortController().signal;
let workspace: string;

/** An open, saved file the agent already changed once through fs/write_text_file (line 1 became ONE). */
async function openFileWithPendingHunk() {
  const { documents, ledger, createFs } = reviewedFiles(workspace);
  const fs = createFs({ ...session, cwd: workspace });
  const path = join(workspace, 'notes.txt');
  writeFileSync(path, SIX_LINES);
  documents.open.set(path, SIX_LINES);
  await fs.writeTextFile({ sessionId: 's', path, content: SIX_LINES.replace('line 1\n', 'ONE\n') }, never);
  return { documents, ledger, fs, path };
}

beforeEachTest((t) => {
  workspace = tempWorkspace(t, 'tandem-review-');
});

describe('an agent write to an open file with pending hunks', () => {
  test('reaches the ledger once: one change event, the hunks of both writes', async () => {
    const { documents, ledger, fs, path } = await openFileWithPendingHunk();
    const first = ledger.file(path)?.hunks[0];
    assert.ok(first, 'the first write left a pending hunk');

    let changes = 0;
    ledger.onDidChange(() => changes++);
    const content = SIX_LINES.replace('line 1\n', 'ONE\n').replace('line 4\n', 'FOUR\n');
    await fs.writeTextFile({ sessionId: 's', path, content }, never);

    assert.equal(changes, 1, 'one write, one ledger update');
    assert.equal(documents.open.get(path), content);
    assert.equal(readFileSync(path, 'utf8'), SIX_LINES, 'the writes joined the open document; saving it is the user\'s');
    assert.equal(ledger.currentText(path), content);
    assert.equal(ledger.file(path)?.origin, 'editor');
    const hunks = ledger.file(path)?.hunks ?? [];
    assert.deepEqual(shape(hunks), [
      { baseStart: 1, currentStart: 1, removed: ['line 1'], added: ['ONE'] },
      { baseStart: 4, currentStart: 4, removed: ['line 4'], added: ['FOUR'] },
    ]);
    assert.equal(hunks[0]?.id, first.id, 'the earlier hunk keeps its id');
    assert.notEqual(hunks[1]?.id, first.id);
    fs.dispose();
  });

  test('the user\'s own edits of that file still move the ledger, once each', async () => {
    const { documents, ledger, fs, path } = await openFileWithPendingHunk();

    let changes = 0;
    ledger.onDidChange(() => changes++);
    const typed = SIX_LINES.replace('line 1\n', 'ONE\n').replace('line 5\n', 'typed\n');
    documents.edit(path, typed);

    assert.equal(changes, 1);
    assert.equal(ledger.currentText(path), typed);
    assert.deepEqual(ledger.file(path)?.hunks.map((hunk) => hunk.added), [['ONE'], ['typed']]);
    fs.dispose();
  });
});
