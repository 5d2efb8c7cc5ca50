import type * as acp from '@agentclientprotocol/sdk';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { DiskChangeTracker } from '../../src/fs/diskChangeTracker';
import type { RecordedChange } from '../../src/review/types';
import { Emitter } from '../../src/util/emitter';
import { silentLogger } from '../../src/util/logger';

let workspace: string;
let updates: Emitter<acp.SessionUpdate>;
let recorded: { path: string; change: RecordedChange }[];
let reloaded: string[][];
let tracker: DiskChangeTracker;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'tandem-disk-'));
  updates = new Emitter();
  recorded = [];
  reloaded = [];
  tracker = new DiskChangeTracker({
    cwd: workspace,
    roots: () => [workspace],
    onUpdate: updates.event,
    changes: { record: (path, change) => recorded.push({ path, change }) },
    alreadyRecorded: () => false,
    onDiskChanged: (paths) => reloaded.push(paths),
    logger: silentLogger,
  });
});
afterEach(() => {
  tracker.dispose();
  rmSync(workspace, { recursive: true, force: true });
});

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
