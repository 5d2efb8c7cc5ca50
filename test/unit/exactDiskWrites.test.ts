/**
 * Exact content to disk for undo and redo: bytes as they are, through the same checked open as
 * every other write (never through a link that leads out), only over the content they replace;
 * and fs/write_text_file records the text the file really holds after the write.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { replaceFileContent } from '../../src/files/fileAccess';
import type { DocumentStore } from '../../src/files/documents';
import { sha256 } from '../support/hashes';
import { editorFsService } from '../support/pathEscapeCases';
import { TestCodec } from '../support/memoryDocuments';
import { diskReview } from '../support/reviewHarness';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let root: string;
let workspace: string;
let outside: string;

beforeEachTest((t) => {
  root = tempWorkspace(t, 'tandem-exact-');
  workspace = join(root, 'workspace');
  outside = join(root, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
});

describe('replaceFileContent', () => {
  test('bytes land exactly, text as UTF-8, null removes; a file that holds something else is left alone', async () => {
    const path = join(workspace, 'sub', 'file.bin');
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0xe9]);
    await replaceFileContent(path, [workspace], bytes, null);
    assert.equal(sha256(readFileSync(path)), sha256(bytes));
    await assert.rejects(replaceFileContent(path, [workspace], 'text', null), /changed on disk since the agent's change/);
    await assert.rejects(replaceFileContent(path, [workspace], 'text', Buffer.from([0xff])), /changed on disk since the agent's change/);
    await replaceFileContent(path, [workspace], '\uFEFFcafé\r\n', bytes);
    assert.deepEqual(readFileSync(path), Buffer.from('\uFEFFcafé\r\n', 'utf8'));
    await replaceFileContent(path, [workspace], null, Buffer.from('\uFEFFcafé\r\n', 'utf8'));
    assert.equal(existsSync(path), false);
  });

  test('a file turned into a link out of the workspace is refused, even when it leads to the very bytes expected', async () => {
    const review = diskReview(workspace);
    const path = join(workspace, 'latin1.txt');
    const original = Buffer.from('caf\xe9\n', 'latin1');
    const agents = Buffer.from('th\xe9\n', 'latin1');
    writeFileSync(path, original);
    review.send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path }] });
    writeFileSync(path, agents);
    review.send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    const target = join(outside, 'target.txt');
    writeFileSync(target, agents);
    rmSync(path);
    symlinkSync(target, path);
    const failures = await review.writer.undo(review.ledger.undoAll());
    assert.equal(failures.length, 1);
    assert.match(failures[0]?.reason ?? '', /leads out of the workspace/);
    assert.deepEqual(readFileSync(target), agents, 'nothing was written outside');
    assert.equal(review.ledger.files().length, 1, 'the change is still pending');
    review.fs.dispose();
  });
});

describe('fs/write_text_file records what the file holds', () => {
  test('the text the documents report after the write is the change\'s new text, and what the agent saw', async () => {
    const path = join(workspace, 'mixed.txt');
    writeFileSync(path, 'one\r\ntwo\nthree\r\n');
    const recorded: { path: string; before: string | null; after: string | null }[] = [];
    const asked: string[] = [];
    // As the editor's documents do for a file that mixes line endings: untouched lines keep theirs.
    const documents: DocumentStore = {
      openText: () => undefined,
      codec: new TestCodec(),
      write: async (_path, text) => {
        const kept = text.replace('two\r\n', 'two\n');
        writeFileSync(path, kept);
        return { text: kept };
      },
    };
    const fs = editorFsService({ workspace, documents, asked, recorded, decisions: { overwriteUserChanges: async () => { asked.push('overwrite'); return false; } } });
    await fs.readTextFile({ sessionId: 's', path });
    await fs.writeTextFile({ sessionId: 's', path, content: 'ONE\r\ntwo\r\nthree\r\n' });
    assert.deepEqual(recorded, [{ path, before: 'one\r\ntwo\nthree\r\n', after: 'ONE\r\ntwo\nthree\r\n' }]);
    // The agent's next write without a read is not taken for the user changing the file in between.
    await fs.writeTextFile({ sessionId: 's', path, content: 'ONE\r\ntwo\r\nTHREE\r\n' });
    assert.deepEqual(asked, []);
    assert.equal(recorded.length, 2);
  });
});
