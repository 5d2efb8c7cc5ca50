import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { FileMemento } from '../../src/vscode/fileMemento';
import type { Logger } from '../../src/util/logger';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

/** workspaceState as an extension sees it, holding what earlier versions saved there. */
function legacyState(initial: Record<string, unknown> = {}): vscode.Memento & { values: Map<string, unknown> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, defaultValue?: T) => (values.has(key) ? (values.get(key) as T) : defaultValue),
    update: (key: string, value: unknown) => {
      if (value === undefined) values.delete(key);
      else values.set(key, value);
      return Promise.resolve();
    },
  } as vscode.Memento & { values: Map<string, unknown> };
}

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const ignore = () => undefined;
  return { errors, trace: ignore, debug: ignore, info: ignore, warn: ignore, error: (message) => errors.push(message) };
}

describe('workspace records kept as files in the extension\'s storage folder', () => {
  let root: string;
  let folder: string;
  beforeEachTest((t) => {
    root = tempWorkspace(t, 'tandem-records-');
    folder = join(root, 'state');
  });

  test('a value written is read back by the next window, from its own file, without touching workspaceState', async () => {
    const legacy = legacyState();
    const conversation = { open: [{ tabId: 't1', entries: [{ kind: 'user', id: 'e1', text: 'héllo\n"quoted"' }] }], activeTabId: 't1', closed: [] };
    await new FileMemento(folder, legacy, recordingLogger()).update('tandem.transcripts', conversation);
    assert.deepEqual(JSON.parse(readFileSync(join(folder, 'tandem.transcripts.json'), 'utf8')), conversation);
    assert.equal(legacy.values.size, 0, 'nothing went through workspaceState');
    assert.deepEqual(new FileMemento(folder, legacy, recordingLogger()).get('tandem.transcripts'), conversation);
    assert.deepEqual(readdirSync(folder), ['tandem.transcripts.json'], 'no temporary file is left behind');
  });

  test('the files are the user\'s alone to read', async () => {
    await new FileMemento(folder, legacyState(), recordingLogger()).update('tandem.review.ledger', { files: [] });
    assert.equal(statSync(join(folder, 'tandem.review.ledger.json')).mode & 0o777, 0o600);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
  });

  test('a record saved by an earlier version in workspaceState is read from there, and moves here at its first write', async () => {
    const legacy = legacyState({ 'tandem.transcripts': { open: [], activeTabId: null, closed: [{ tabId: 'old' }] }, 'tandem.selectedAgent': 'gemini' });
    const records = new FileMemento(folder, legacy, recordingLogger());
    assert.deepEqual(records.get('tandem.transcripts'), { open: [], activeTabId: null, closed: [{ tabId: 'old' }] });
    await records.update('tandem.transcripts', { open: [], activeTabId: null, closed: [{ tabId: 'old' }, { tabId: 'new' }] });
    assert.equal(legacy.values.has('tandem.transcripts'), false, 'workspaceState no longer carries it');
    assert.equal(legacy.values.get('tandem.selectedAgent'), 'gemini', 'other keys there are left alone');
    assert.deepEqual(new FileMemento(folder, legacy, recordingLogger()).get('tandem.transcripts'), { open: [], activeTabId: null, closed: [{ tabId: 'old' }, { tabId: 'new' }] });
  });

  test('writing undefined removes the record; a default stands in for a missing one', async () => {
    const records = new FileMemento(folder, legacyState(), recordingLogger());
    await records.update('tandem.feedback', { comments: 1 });
    await records.update('tandem.feedback', undefined);
    assert.deepEqual(readdirSync(folder), []);
    assert.equal(records.get('tandem.feedback', 'none'), 'none');
    assert.deepEqual(new FileMemento(folder, legacyState(), recordingLogger()).keys(), []);
  });

  test('a file that is not JSON is set aside with its bytes, logged, and the next save does not overwrite it', async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'tandem.transcripts.json'), '{"open": [trunc');
    const logger = recordingLogger();
    const records = new FileMemento(folder, legacyState(), logger);
    assert.equal(records.get('tandem.transcripts'), undefined);
    assert.match(logger.errors.join('\n'), /tandem\.transcripts\.json is not JSON .*moved to .*tandem\.transcripts\.json\.unreadable/);
    await records.update('tandem.transcripts', { open: [] });
    assert.equal(readFileSync(join(folder, 'tandem.transcripts.json.unreadable'), 'utf8'), '{"open": [trunc');
    assert.deepEqual(JSON.parse(readFileSync(join(folder, 'tandem.transcripts.json'), 'utf8')), { open: [] });
  });

  test('a write that fails is logged and the value is still served from memory', async () => {
    writeFileSync(root + '/blocked', '');
    const logger = recordingLogger();
    const records = new FileMemento(join(root, 'blocked', 'state'), legacyState(), logger);
    await records.update('tandem.transcripts', { open: [1] });
    assert.match(logger.errors.join('\n'), /could not save tandem\.transcripts/);
    assert.deepEqual(records.get('tandem.transcripts'), { open: [1] });
  });

  test('a key that could name a path elsewhere is refused', async () => {
    const records = new FileMemento(folder, legacyState(), recordingLogger());
    assert.throws(() => records.get('../outside'), /Not a storage key/);
  });
});
