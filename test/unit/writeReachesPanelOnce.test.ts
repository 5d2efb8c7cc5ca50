import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FsPort } from '../../src/acp/clientPorts';
import type { HostToWebview } from '../../src/contract/messages';
import { ledgerReviewSource } from '../support/ledgerReviewSource';
import { reviewedFiles } from '../support/reviewHarness';
import { scriptedPresenter, tempWorkspace } from '../support/sessionBuilders';
import { acpFsPort } from '../../src/workspace/acpV1Ports';

const SIX_LINES = Array.from({ length: 6 }, (_, i) => `line ${i}\n`).join('');
/** The agent never cancels these requests. */
const never = new AbortController().signal;

/**
 * The whole way from an agent's `fs/write_text_file` to the webview: the session's own fs service
 * (served to the agent the session opened), the editor's documents and the change ledger, and the
 * panel's review. The write is made on the fs service the session created for its agent, which is
 * what the connection calls for the agent's request.
 */
test('one agent write to an open file with pending hunks: one ledger update, one reviewChanged showing both hunks', async (t) => {
  const workspace = tempWorkspace(t);
  const files = reviewedFiles(workspace);
  const served: FsPort[] = [];
  const panel = scriptedPresenter(t, {
    workspace,
    scope: {
      files: (context) => {
        const service = files.files(context);
        // The agent reaches the service through the ACP v1 adapter: the test writes the same way.
        served.push(acpFsPort(service, () => false));
        return service;
      },
    },
    review: ledgerReviewSource(files.ledger, workspace),
  });
  await panel.ready();
  const [fs] = served;
  const sessionId = panel.session().currentSessionId;
  assert.ok(fs && sessionId, 'the session served fs to its agent');
  const path = join(workspace, 'notes.txt');
  writeFileSync(path, SIX_LINES);
  files.documents.open.set(path, SIX_LINES);
  const first = SIX_LINES.replace('line 1\n', 'ONE\n');
  await fs.writeTextFile({ sessionId, path, content: first }, never);
  assert.equal(files.ledger.file(path)?.hunks.length, 1, 'the first write left a pending hunk');

  let ledgerUpdates = 0;
  files.ledger.onDidChange(() => ledgerUpdates++);
  const before = panel.posted.length;
  const second = first.replace('line 4\n', 'FOUR\n');
  await fs.writeTextFile({ sessionId, path, content: second }, never);

  const reviews = panel.posted.slice(before).filter((message): message is Extract<HostToWebview, { type: 'reviewChanged' }> => message.type === 'reviewChanged');
  assert.equal(ledgerUpdates, 1, 'one write, one ledger update');
  assert.equal(reviews.length, 1, 'one ledger update, one reviewChanged');
  assert.deepEqual(reviews[0]?.review.files.map((file) => [file.label, file.hunks.map((hunk) => hunk.added)]), [['notes.txt', [['ONE'], ['FOUR']]]]);
  assert.equal(readFileSync(path, 'utf8'), SIX_LINES, 'the writes joined the open document; saving it is the user\'s');
  assert.equal(files.documents.open.get(path), second);
});
