/**
 * An undo whose disk write is refused with EACCES, as it is for a user who may not write the
 * file. Root is stopped by no file mode, so where the suite runs as root the undo runs in a
 * child process as the unprivileged user `nobody`, through the same review writer and ledger
 * as the panel.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chownSync } from 'node:fs';
import { userInfo } from 'node:os';
import { test } from 'node:test';
import { tempWorkspace } from '../support/sessionBuilders';

const NOBODY = 65534;
/** Who the child runs as: anyone but root is refused by a read-only file. */
const unprivileged = userInfo().uid === 0 ? { uid: NOBODY, gid: NOBODY } : {};

/** Run unprivileged: the agent changes a file on disk, the file turns read-only, Undo all, then Undo all again once it is writable. */
const UNDO_UNPRIVILEGED = `
  require('tsx/cjs');
  const { chmodSync, readFileSync, writeFileSync } = require('node:fs');
  const { diskReview } = require(${JSON.stringify(require.resolve('../support/reviewHarness'))});
  (async () => {
    const [workspace] = process.argv.slice(1);
    const path = require('node:path').join(workspace, 'a.txt');
    writeFileSync(path, 'one\\ntwo\\n');
    const review = diskReview(workspace);
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path }] });
    writeFileSync(path, 'ONE\\ntwo\\n');
    review.send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    chmodSync(path, 0o444);
    const refused = await review.writer.undo(review.ledger.undoAll());
    const afterRefusal = { reasons: refused.map((failure) => failure.reason), pending: review.ledger.files().map((file) => file.path), disk: readFileSync(path, 'utf8') };
    chmodSync(path, 0o644);
    const retried = await review.writer.undo(review.ledger.undoAll());
    const afterRetry = { failures: retried.length, pending: review.ledger.files().length, disk: readFileSync(path, 'utf8') };
    review.fs.dispose();
    console.log(JSON.stringify({ path, afterRefusal, afterRetry }));
  })();
`;

test('an undo refused with EACCES keeps the change on disk and pending, and the next Undo all undoes it', (t) => {
  const workspace = tempWorkspace(t, 'tandem-undo-eacces-');
  if ('uid' in unprivileged) chownSync(workspace, NOBODY, NOBODY);
  const child = spawnSync(process.execPath, ['-e', UNDO_UNPRIVILEGED, workspace], { ...unprivileged, encoding: 'utf8', env: { ...process.env, HOME: workspace }, timeout: 60_000 });
  assert.equal(child.status, 0, child.stderr);
  const { path, afterRefusal, afterRetry } = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
    path: string;
    afterRefusal: { reasons: string[]; pending: string[]; disk: string };
    afterRetry: { failures: number; pending: number; disk: string };
  };
  assert.equal(afterRefusal.reasons.length, 1);
  assert.match(afterRefusal.reasons[0] ?? '', /EACCES/);
  assert.deepEqual(afterRefusal.pending, [path], 'the agent\'s change is still pending');
  assert.equal(afterRefusal.disk, 'ONE\ntwo\n', 'and still on disk');
  assert.deepEqual(afterRetry, { failures: 0, pending: 0, disk: 'one\ntwo\n' });
});
