/**
 * An agent that writes a file before Tandem has processed its edit tool call, and dies before the
 * call completes (so no diff ever says what the file held): the change is still in review, with
 * the file as the turn found it as its base, and Undo gives back exactly those bytes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { ReviewWriter } from '../../src/review/reviewWriter';
import { ThreadModel } from '../../src/thread/threadModel';
import { Emitter } from '../../src/util/emitter';
import { silentLogger } from '../../src/util/logger';
import { onTurnStart } from '../../src/review/turnStarts';
import { sha256 } from '../support/hashes';
import { reviewedFiles } from '../support/reviewHarness';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let workspace: string;

beforeEachTest((t) => {
  workspace = tempWorkspace(t, 'tandem-late-snapshot-');
});

/** A session fs over a real thread, as a conversation gives it; `kill` ends it as a dead agent's end does. */
function session() {
  const { documents, ledger, createFs } = reviewedFiles(workspace);
  const thread = new ThreadModel();
  const updates = new Emitter<acp.SessionUpdate>();
  const fs = createFs({ key: 'session-1', cwd: workspace, thread, logger: silentLogger, onUpdate: updates.event, onPermissionRequest: () => ({ dispose: () => undefined }), agentInfo: () => null });
  const send = (update: acp.SessionUpdate) => {
    thread.applyUpdate(update);
    updates.fire(update);
  };
  // The prompt goes out after the user message is in the thread and at least one promise later.
  const promptSent = async (text: string) => {
    thread.addUserMessage(text);
    await Promise.resolve();
  };
  return { ledger, promptSent, send, kill: () => fs.dispose(), writer: new ReviewWriter(ledger, documents) };
}

describe('a write that lands before its edit tool call is processed, and a kill before it completes', () => {
  test('in review with the file as the turn found it; Undo gives back its bytes', async () => {
    const s = session();
    // Changed after the session started: the turn's start is what counts.
    const path = join(workspace, 'src', 'a.txt');
    mkdirSync(join(workspace, 'src'));
    const original = Buffer.from('as the user left it\r\nsecond line\n');
    writeFileSync(path, original);
    await s.promptSent('change a.txt');
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
    await s.promptSent('add b.txt');
    const path = join(workspace, 'b.txt');
    writeFileSync(path, 'new\n');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-0', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    s.kill();

    assert.equal(s.ledger.file(path)?.status, 'created');
    assert.deepEqual(await s.writer.undo([s.ledger.undoFile(path)]), []);
    assert.throws(() => readFileSync(path), { code: 'ENOENT' });
  });

  test('a second write of the same file in the turn starts from the first one\'s result', async () => {
    const s = session();
    const path = join(workspace, 'c.txt');
    writeFileSync(path, 'one\n');
    await s.promptSent('edit c.txt twice');
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

  test('a failed call is no change, and files under .git or node_modules are never read for it', async () => {
    const s = session();
    const path = join(workspace, 'd.txt');
    writeFileSync(path, 'before\n');
    mkdirSync(join(workspace, 'node_modules'));
    const dependency = join(workspace, 'node_modules', 'x.js');
    writeFileSync(dependency, 'old\n');
    await s.promptSent('go');
    writeFileSync(path, 'after\n');
    writeFileSync(dependency, 'new\n');
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-0', title: 'Write', kind: 'edit', status: 'failed', locations: [{ path }] });
    s.send({ sessionUpdate: 'tool_call', toolCallId: 'write-1', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path: dependency }] });
    s.kill();

    assert.equal(s.ledger.file(path), undefined);
    assert.equal(s.ledger.file(dependency), undefined);
  });
});

describe('turn starts, when the workspace is read again', () => {
  const started = async (act: (thread: ThreadModel, updates: Emitter<acp.SessionUpdate>) => void) => {
    const thread = new ThreadModel();
    const updates = new Emitter<acp.SessionUpdate>();
    let count = 0;
    const listening = onTurnStart(thread.onDelta, updates.event)(() => count++);
    act(thread, updates);
    await Promise.resolve();
    listening.dispose();
    return count;
  };
  const replayed = (thread: ThreadModel, updates: Emitter<acp.SessionUpdate>, text: string) => {
    const update: acp.SessionUpdate = { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } };
    thread.applyUpdate(update);
    updates.fire(update);
  };

  test('a message the user sends starts one, before the prompt can go out', async () => {
    assert.equal(await started((thread) => thread.addUserMessage('go')), 1);
  });

  test('a loaded session\'s replayed messages and a restored thread start none', async () => {
    assert.equal(await started((thread, updates) => {
      for (let i = 0; i < 100; i++) {
        replayed(thread, updates, `message ${i}`);
        thread.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'answer' } });
      }
    }), 0);
    const earlier = new ThreadModel();
    earlier.addUserMessage('one');
    earlier.addUserMessage('two');
    assert.equal(await started((thread) => thread.restore(earlier.snapshot())), 0);
  });
});
