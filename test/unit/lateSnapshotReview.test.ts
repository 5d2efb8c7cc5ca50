/**
 * An agent that writes a file before Tandem has processed its edit tool call, and dies before the
 * call completes (so no diff ever says what the file held): the change is still in review, with
 * the file as the turn found it as its base, and Undo gives back exactly those bytes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { ReviewWriter } from '../../src/vscode/review/reviewWriter';
import { ThreadModel } from '../../src/thread/threadModel';
import { Emitter } from '../../src/util/emitter';
import { silentLogger } from '../../src/util/logger';
import { reviewedFiles } from '../support/reviewHarness';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'tandem-late-snapshot-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/** A session fs over a real thread, as a conversation gives it; `kill` ends it as a dead agent's end does. */
function session() {
  const { documents, ledger, createFs } = reviewedFiles(workspace);
  const thread = new ThreadModel();
  const updates = new Emitter<acp.SessionUpdate>();
  const fs = createFs({ key: 'session-1', cwd: workspace, thread, logger: silentLogger, onUpdate: updates.event, agentInfo: () => null });
  const send = (update: acp.SessionUpdate) => {
    thread.applyUpdate(update);
    updates.fire(update);
  };
  return { ledger, thread, send, kill: () => fs.dispose(), writer: new ReviewWriter(ledger, documents) };
}

describe('a write that lands before its edit tool call is processed, and a kill before it completes', () => {
  test('in review with the file as the turn found it; Undo gives back its bytes', async () => {
    const s = session();
    // Changed after the session started: the turn's start is what counts.
    const path = join(workspace, 'src', 'a.txt');
    mkdirSync(join(workspace, 'src'));
    const original = Buffer.from('as the user left it\r\nsecond line\n');
    writeFileSync(path, original);
    s.thread.addUserMessage('change a.txt');
    writeFileSync(path, 'the agent\'s text\n');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-0', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    s.kill();

    assert.equal(s.ledger.file(path)?.status, 'modified');
    assert.equal(s.ledger.baseText(path), original.toString('utf8'));
    assert.equal(s.ledger.currentText(path), 'the agent\'s text\n');
    assert.deepEqual(await s.writer.undo([s.ledger.undoFile(path)]), []);
    assert.equal(sha256(readFileSync(path)), sha256(original));
  });

  test('a file created that way is in review as new; Undo removes it', async () => {
    const s = session();
    s.thread.addUserMessage('add b.txt');
    const path = join(workspace, 'b.txt');
    writeFileSync(path, 'new\n');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-0', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    s.kill();

    assert.equal(s.ledger.file(path)?.status, 'created');
    assert.deepEqual(await s.writer.undo([s.ledger.undoFile(path)]), []);
    assert.throws(() => readFileSync(path), { code: 'ENOENT' });
  });

  test('a second write of the same file in the turn starts from the first one\'s result', () => {
    const s = session();
    const path = join(workspace, 'c.txt');
    writeFileSync(path, 'one\n');
    s.thread.addUserMessage('edit c.txt twice');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-0', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    writeFileSync(path, 'two\n');
    s.send({ sessionUpdate: 'tool_call_update', toolCallId: 'write-0', status: 'completed' });
    s.ledger.keepAll();
    writeFileSync(path, 'three\n');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-1', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    s.kill();

    assert.equal(s.ledger.baseText(path), 'two\n');
    assert.equal(s.ledger.currentText(path), 'three\n');
  });

  test('a failed call is no change, and files under .git or node_modules are never read for it', () => {
    const s = session();
    const path = join(workspace, 'd.txt');
    writeFileSync(path, 'before\n');
    mkdirSync(join(workspace, 'node_modules'));
    const dependency = join(workspace, 'node_modules', 'x.js');
    writeFileSync(dependency, 'old\n');
    s.thread.addUserMessage('go');
    writeFileSync(path, 'after\n');
    writeFileSync(dependency, 'new\n');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-0', title: 'Write', kind: 'edit', status: 'failed', locations: [{ path }] });
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-1', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path: dependency }] });
    s.kill();

    assert.equal(s.ledger.file(path), undefined);
    assert.equal(s.ledger.file(dependency), undefined);
  });
});
