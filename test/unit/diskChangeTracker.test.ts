import type * as acp from '@agentclientprotocol/sdk';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { DiskChangeTracker } from '../../src/review/diskChangeTracker';
import type { RecordedChange } from '../../src/review/types';
import { Emitter } from '../../src/util/emitter';
import { silentLogger } from '../../src/util/logger';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let workspace: string;
let updates: Emitter<acp.SessionUpdate>;
let turns: Emitter<void>;
let recorded: { path: string; change: RecordedChange }[];
let reloaded: string[][];
let notices: string[];
let tracker: DiskChangeTracker;
let permissionRequests: Emitter<acp.ToolCallUpdate>;
/** Whether a prompt's turn is running, as the session tells the tracker. */
let promptUnderWay: boolean;

beforeEachTest((t) => {
  workspace = tempWorkspace(t, 'tandem-disk-');
  updates = new Emitter();
  permissionRequests = new Emitter();
  turns = new Emitter();
  promptUnderWay = true;
  recorded = [];
  reloaded = [];
  notices = [];
  tracker = newTracker();
});
afterEach(() => tracker.dispose());

/** A tracker as a session's start makes one: its baseline is the workspace as it is now. */
function newTracker(): DiskChangeTracker {
  return new DiskChangeTracker({
    cwd: workspace,
    roots: () => [workspace],
    onUpdate: updates.event,
    onPermissionRequest: permissionRequests.event,
    onTurnStart: turns.event,
    promptUnderWay: () => promptUnderWay,
    changes: { record: (path, change) => recorded.push({ path, change }) },
    alreadyRecorded: () => false,
    onDiskChanged: (paths) => reloaded.push(paths),
    notify: (text) => notices.push(text),
    logger: silentLogger,
  });
}

describe('changes an agent makes on disk itself', () => {
  test('an edit tool call: snapshot when it starts, compare when it completes', () => {
    const path = join(workspace, 'a.txt');
    writeFileSync(path, 'before\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path }] });
    writeFileSync(path, 'after\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    assert.deepEqual(recorded, [{ path, change: { before: 'before\n', after: 'after\n', origin: 'disk', toolCallId: 't1' } }]);
    assert.deepEqual(reloaded, [[path]]);
  });

  test('a call that names its file only in its permission request (OpenCode\'s apply_patch) is snapshotted when it asks', () => {
    const path = join(workspace, 'asked.txt');
    writeFileSync(path, 'before\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 'p1', title: 'apply_patch', kind: 'edit', status: 'pending', locations: [] });
    permissionRequests.fire({ toolCallId: 'p1', title: 'Edit asked.txt', kind: 'edit', locations: [], content: [{ type: 'diff', path, oldText: 'before\n', newText: 'after\n' }] });
    writeFileSync(path, 'after\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 'p1', status: 'completed', locations: [] });
    assert.deepEqual(recorded, [{ path, change: { before: 'before\n', after: 'after\n', origin: 'disk', toolCallId: 'p1' } }]);
  });

  test('a call refused at its permission request records nothing', () => {
    const path = join(workspace, 'refused.txt');
    writeFileSync(path, 'before\n');
    permissionRequests.fire({ toolCallId: 'p2', title: 'Edit refused.txt', kind: 'edit', content: [{ type: 'diff', path, oldText: 'before\n', newText: 'after\n' }] });
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 'p2', status: 'failed' });
    assert.deepEqual(recorded, []);
  });

  test('reads and other calls that change no file are not watched', () => {
    const path = join(workspace, 'a.txt');
    writeFileSync(path, 'before\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending', locations: [{ path }] });
    writeFileSync(path, 'after\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    assert.deepEqual(recorded, []);
  });

  test('a diff makes a call watched; a snapshot taken too late yields to the reported original', () => {
    const path = join(workspace, 'b.txt');
    const outside = join(tmpdir(), 'tandem-outside.txt');
    writeFileSync(path, 'new\n');
    updates.fire({
      sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Write', status: 'in_progress',
      content: [{ type: 'diff', path, oldText: 'old\n', newText: 'new\n' }, { type: 'diff', path: outside, oldText: 'x', newText: 'y' }],
      _meta: { claudeCode: { toolResponse: { filePath: path, originalFile: 'original\n' } } },
    });
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'completed' });
    assert.deepEqual(recorded, [{ path, change: { before: 'original\n', after: 'new\n', origin: 'disk', toolCallId: 't2' } }]);
  });

  test('a deleted file is recorded as deleted, once, however many updates follow', () => {
    const path = join(workspace, 'c.txt');
    writeFileSync(path, 'gone soon\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't3', title: 'Delete', kind: 'delete', status: 'pending', locations: [{ path }] });
    rmSync(path);
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't3', status: 'failed' });
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't3', status: 'completed', locations: [{ path }] });
    assert.deepEqual(recorded, [{ path, change: { before: 'gone soon\n', after: null, origin: 'disk', toolCallId: 't3' } }]);
  });
});

describe('changes that must reach review however the agent announces them', () => {
  /** A file as the agent's turn finds it when it starts. */
  const fileWith = (name: string, text: string) => {
    const path = join(workspace, name);
    writeFileSync(path, text);
    turns.fire();
    return path;
  };

  /**
   * A file the turn's baseline does not know (build output is not kept), as the agent's write left
   * it before its call was seen: only what the agent says can tell what it held.
   */
  const unknownToTheTurn = (name: string, text: string) => {
    mkdirSync(join(workspace, 'build'), { recursive: true });
    const path = join(workspace, 'build', name);
    writeFileSync(path, text);
    turns.fire();
    return path;
  };

  test('a call still running when the session ends (the agent died) is compared then', () => {
    const path = fileWith('a.txt', 'before\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    writeFileSync(path, 'after\n');
    assert.deepEqual(recorded, []);
    tracker.dispose();
    assert.deepEqual(recorded, [{ path, change: { before: 'before\n', after: 'after\n', origin: 'disk', toolCallId: 't1' } }]);
    // Ending twice changes nothing.
    tracker.dispose();
    assert.equal(recorded.length, 1);
  });

  test('a copy read while the agent\'s write had only emptied the file yields to the file as the turn found it', () => {
    const path = fileWith('a.txt', 'before\n');
    writeFileSync(path, '');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    writeFileSync(path, 'after\n');
    tracker.dispose();
    assert.deepEqual(recorded, [{ path, change: { before: 'before\n', after: 'after\n', origin: 'disk', toolCallId: 't1' } }]);
  });

  test('so does a copy of a file the turn did not find, read just after the agent created it', () => {
    turns.fire();
    const created = join(workspace, 'new.txt');
    writeFileSync(created, '');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path: created }] });
    writeFileSync(created, 'new\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'completed' });
    assert.deepEqual(recorded[0], { path: created, change: { before: null, after: 'new\n', origin: 'disk', toolCallId: 't2' } });
  });

  test('the write landed before the first tool_call: the agent\'s diff in it tells what the file held', () => {
    const path = unknownToTheTurn('a.txt', 'one\nTWO\nthree\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', content: [{ type: 'diff', path, oldText: 'two\n', newText: 'TWO\n' }] });
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    assert.deepEqual(recorded, [{ path, change: { before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\n', origin: 'disk', toolCallId: 't1' } }]);
  });

  test('a diff only in the completing update, of a call that named no file and no kind before', () => {
    const path = unknownToTheTurn('a.txt', 'x = 2\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'apply_patch', status: 'in_progress' });
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'diff', path, oldText: 'x = 1\n', newText: 'x = 2\n' }] });
    assert.deepEqual(recorded.map(({ change }) => [change.before, change.after]), [['x = 1\n', 'x = 2\n']]);
  });

  test('several diffs of one file in one call are undone in reverse order', () => {
    const path = unknownToTheTurn('a.txt', 'A\nb\nC\n');
    updates.fire({
      sessionUpdate: 'tool_call', toolCallId: 't1', title: 'MultiEdit', kind: 'edit', status: 'completed',
      content: [{ type: 'diff', path, oldText: 'a\n', newText: 'A\n' }, { type: 'diff', path, oldText: 'A\nb\nc\n', newText: 'A\nb\nC\n' }],
    });
    assert.deepEqual(recorded.map(({ change }) => change.before), ['a\nb\nc\n']);
  });

  test('only locations, under a kind that is not only looking (no kind, "other", "execute"), are watched', () => {
    for (const [id, kind] of [['t1', undefined], ['t2', 'other'], ['t3', 'execute']] as const) {
      const path = fileWith(`${id}.txt`, 'before\n');
      updates.fire({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Run', status: 'in_progress', locations: [{ path }], ...(kind ? { kind } : {}) });
      writeFileSync(path, 'after\n');
      updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' });
    }
    assert.deepEqual(recorded.map(({ change }) => change.toolCallId), ['t1', 't2', 't3']);
  });

  test('a read stays a read when a later update (without its kind) names files', () => {
    const path = fileWith('a.txt', 'before\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending' });
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress', locations: [{ path }] });
    writeFileSync(path, 'after\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    assert.deepEqual(recorded, []);
  });

  test('Gemini-style whole-file diffs (_meta.kind add, modify, delete) seen after the write', () => {
    const modified = fileWith('modified.txt', 'all old\n');
    const deleted = fileWith('deleted.txt', 'was here\n');
    const added = join(workspace, 'added.txt');
    // Its writes land before the call is seen.
    writeFileSync(added, 'new file\n');
    writeFileSync(modified, 'all new\n');
    rmSync(deleted);
    updates.fire({
      sessionUpdate: 'tool_call', toolCallId: 't1', title: 'WriteFile', kind: 'edit', status: 'completed',
      content: [
        { type: 'diff', path: added, oldText: '', newText: 'new file\n', _meta: { kind: 'add' } },
        { type: 'diff', path: modified, oldText: 'all old\n', newText: 'all new\n', _meta: { kind: 'modify' } },
        { type: 'diff', path: deleted, oldText: 'was here\n', newText: '', _meta: { kind: 'delete' } },
      ],
    });
    assert.deepEqual(recorded.map(({ path, change }) => [path, change.before, change.after]), [
      [added, null, 'new file\n'],
      [modified, 'all old\n', 'all new\n'],
      [deleted, 'was here\n', null],
    ]);
  });

  test('a diff is no evidence where the edit plainly did not happen, nor for a failed call', () => {
    const stillOld = unknownToTheTurn('old.txt', 'keep = 1\nother = 2\n');
    const failed = unknownToTheTurn('failed.txt', 'a\nb\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: stillOld, oldText: 'keep = 1\n', newText: 'other = 2\n' }] });
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit', kind: 'edit', status: 'failed', content: [{ type: 'diff', path: failed, oldText: 'x\n', newText: 'b\n' }] });
    assert.deepEqual(recorded, []);
    assert.deepEqual(notices, []);
  });

  test('a change whose copy came too late and whose diff does not place it is told to the user', () => {
    const path = unknownToTheTurn('twice.txt', 'same\nsame\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path, oldText: 'old\n', newText: 'same\n' }] });
    assert.deepEqual(recorded, []);
    assert.equal(notices.length, 1);
    assert.match(notices[0] ?? '', /twice\.txt.*not in review/);
  });

  test('no notice when the agent reported the original and it is what the file holds (nothing changed)', () => {
    const path = unknownToTheTurn('same.txt', 'same\nsame\n');
    updates.fire({
      sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed',
      content: [{ type: 'diff', path, oldText: 'old\n', newText: 'same\n' }],
      _meta: { claudeCode: { toolResponse: { filePath: path, originalFile: 'same\nsame\n' } } },
    });
    assert.deepEqual([recorded, notices], [[], []]);
  });

  test('Claude\'s tool response without originalFile does not make an existing file "new"', () => {
    const path = unknownToTheTurn('a.txt', 'written\n');
    updates.fire({
      sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write', kind: 'edit', status: 'completed', locations: [{ path }],
      _meta: { claudeCode: { toolResponse: { filePath: path } } },
    });
    assert.deepEqual(recorded, []);
  });
});

describe('a loaded session\'s history, and calls outside a prompt\'s turn', () => {
  test('a loaded session\'s replayed edit is history: kept or undone since, nothing is recorded or told', () => {
    const kept = join(workspace, 'kept.txt');
    const undone = join(workspace, 'undone.txt');
    writeFileSync(kept, 'the agent\'s text\n');
    writeFileSync(undone, 'the agent\'s text\n');
    promptUnderWay = false;
    // The session starts (after a window reload), then the user undoes one change before the agent's replay comes.
    tracker.dispose();
    tracker = newTracker();
    writeFileSync(undone, 'the user\'s text\n');
    for (const [id, path] of [['old-1', kept], ['old-2', undone]] as const) {
      updates.fire({ sessionUpdate: 'tool_call', toolCallId: id, title: 'WriteFile', kind: 'edit', status: 'completed',
        content: [{ type: 'diff', path, oldText: 'the user\'s text\n', newText: 'the agent\'s text\n' }] });
    }
    assert.deepEqual([recorded, notices], [[], []]);
  });

  test('in a turn, a replayed edit whose file is as the turn found it changes nothing (Gemini CLI replays after answering session/load)', () => {
    const path = join(workspace, 'kept.txt');
    writeFileSync(path, 'the agent\'s text, kept\n');
    turns.fire();
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 'old-1', title: 'WriteFile', kind: 'edit', status: 'completed',
      content: [{ type: 'diff', path, oldText: 'the user\'s text\n', newText: 'the agent\'s text, kept\n' }] });
    assert.deepEqual([recorded, notices], [[], []]);
  });

  test('a call followed since its turn is compared when it completes after the turn ended', () => {
    const path = join(workspace, 'late.txt');
    writeFileSync(path, 'before\n');
    updates.fire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'in_progress', locations: [{ path }] });
    promptUnderWay = false;
    writeFileSync(path, 'after\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    assert.deepEqual(recorded, [{ path, change: { before: 'before\n', after: 'after\n', origin: 'disk', toolCallId: 't1' } }]);
  });

  test('a call that asks permission is being made now, turn or not', () => {
    const path = join(workspace, 'asked.txt');
    writeFileSync(path, 'before\n');
    promptUnderWay = false;
    permissionRequests.fire({ toolCallId: 'p1', title: 'Edit asked.txt', kind: 'edit', locations: [{ path }] });
    writeFileSync(path, 'after\n');
    updates.fire({ sessionUpdate: 'tool_call_update', toolCallId: 'p1', status: 'completed' });
    assert.deepEqual(recorded, [{ path, change: { before: 'before\n', after: 'after\n', origin: 'disk', toolCallId: 'p1' } }]);
  });
});
