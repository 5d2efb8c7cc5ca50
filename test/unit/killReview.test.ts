/**
 * The kills row's review check (test/support/killReview.ts): a killed agent's change must be in
 * review as the disk holds it, and a write Tandem still runs for the dead agent is no failure.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { TerminalDisplays } from '../../src/terminals/terminalDisplays';
import { silentLogger } from '../../src/util/logger';
import { killReview } from '../support/killReview';
import { tempWorkspace } from '../support/sessionBuilders';

function reviewOf(t: TestContext, workspace: string) {
  const review = killReview(workspace);
  const terminalDisplays = new TerminalDisplays();
  t.after(() => terminalDisplays.dispose());
  const files = review.scope.files?.({
    key: 'session-1',
    cwd: workspace,
    thread: { findLastToolCall: () => undefined, addNotice: () => undefined },
    logger: silentLogger,
    onUpdate: () => ({ dispose: () => undefined }),
    onPermissionRequest: () => ({ dispose: () => undefined }),
    agentInfo: () => null,
    terminalDisplays,
    promptUnderWay: () => true,
  });
  assert.ok(files, 'the review serves the session its files');
  return { review, files };
}

/** A file the agent wrote through Tandem's fs: in review, and on disk, as "written by the agent". */
async function writtenThroughTandem(t: TestContext) {
  const workspace = tempWorkspace(t, 'tandem-kill-review-');
  const path = join(workspace, 'file-0.txt');
  writeFileSync(path, 'before 0\n');
  const { review, files } = reviewOf(t, workspace);
  await files.write(path, 'written by the agent\n');
  return { path, review };
}

describe('the kills row review check', () => {
  test('a file Tandem was still writing when the disk was first read is compared as the disk holds it now', async (t) => {
    const { path, review } = await writtenThroughTandem(t);
    // Read while Tandem's write had truncated the file and not yet filled it.
    assert.deepEqual(await review.check([{ path, before: 'before 0\n', after: '' }]), []);
  });

  test('a file whose disk text is not the one in review is named', async (t) => {
    const { path, review } = await writtenThroughTandem(t);
    writeFileSync(path, '');
    assert.deepEqual(await review.check([{ path, before: 'before 0\n', after: '' }]), [
      `${path} is in review as "written by the agent\\n", but the disk holds ""`,
    ]);
  });
});
