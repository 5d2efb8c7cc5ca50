/** Restoring the conversation to before a user message: by a fork where the agent offers one, else a new session told what came before. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThreadEntry } from '../../src/thread/entries';
import { conversationRestore } from '../../src/checkpoints/checkpointsConversation';

const entries: ThreadEntry[] = [
  { kind: 'user', id: 'e1', text: 'Add a test for parse()' },
  { kind: 'agentMessage', id: 'e2', text: 'Done.' },
  { kind: 'user', id: 'e3', text: 'Now rename it\nand tidy up' },
  { kind: 'agentMessage', id: 'e4', text: 'Renamed.' },
  { kind: 'user', id: 'e5', text: 'Thanks' },
];

describe('restoring the conversation', () => {
  test('with session/fork: the fork shows what came before the message and is told the rest is withdrawn', () => {
    const restore = conversationRestore({ entries, messageId: 'e3', agentLabel: 'Claude Code', canFork: true, codeRestored: true });
    assert.equal(restore?.route, 'fork');
    assert.deepEqual(restore?.entries.map((entry) => entry.id), ['e1', 'e2']);
    assert.equal(restore?.message, 'Now rename it\nand tidy up');
    assert.equal(restore?.agentNote, '[Note from the editor: the user went back in this conversation to before their message "Now rename it and tidy up". That message and everything after it are withdrawn: disregard them and their results, and continue from the point before it. The project files were restored to how they were before that message; read files again rather than relying on what you saw of them.]');
    assert.ok(restore?.notice.endsWith(restore.agentNote), 'the thread says word for word what the agent is told');
  });

  test('without it: a new session, told what the user had asked before (not the answers), and that the files were not restored', () => {
    const restore = conversationRestore({ entries, messageId: 'e5', agentLabel: 'Gemini CLI', canFork: false, codeRestored: false });
    assert.equal(restore?.route, 'new');
    assert.deepEqual(restore?.entries.map((entry) => entry.id), ['e1', 'e2', 'e3', 'e4']);
    assert.equal(restore?.agentNote, '[Note from the editor: this session continues an earlier conversation that you cannot see, from a point the user went back to. Before that point the user had asked, in order: 1. "Add a test for parse()" 2. "Now rename it and tidy up". Your answers then are not included. The project files were not restored: they still hold every change made since, so read files again before editing.]');
    assert.match(restore?.notice ?? '', /^Gemini CLI cannot fork its sessions, so this is a new session: it has not seen the messages above\. With your next message it is told: \[Note/);
  });

  test('the first message: nothing before it', () => {
    const restore = conversationRestore({ entries, messageId: 'e1', agentLabel: 'Codex', canFork: false, codeRestored: true });
    assert.deepEqual(restore?.entries, []);
    assert.match(restore?.agentNote ?? '', /Nothing had been asked before that point\./);
  });

  test('a message that is not a user message of the thread gives no restore', () => {
    assert.equal(conversationRestore({ entries, messageId: 'e2', agentLabel: 'x', canFork: true, codeRestored: true }), undefined);
    assert.equal(conversationRestore({ entries, messageId: 'missing', agentLabel: 'x', canFork: true, codeRestored: true }), undefined);
  });
});
