import type * as acp from '@agentclientprotocol/sdk';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createSessionFiles } from '../../src/workspace/sessionFiles';
import { agentFs } from './reviewHarness';
import { ChangeFeed } from '../../src/review/changeFeed';
import { ChangeLedger } from '../../src/review/changeLedger';
import type { CheckpointService } from '../../src/checkpoints/checkpointService';
import { CheckpointStore, type Checkpoint, type CheckpointIndexStorage, type CheckpointLimits, CHECKPOINT_LIMITS } from '../../src/checkpoints/checkpoints';
import { planRestore, type RestoreReader } from '../../src/checkpoints/checkpointsPlan';
import { CheckpointRecorder } from '../../src/checkpoints/checkpointsRecorder';
import { CheckpointRestorer } from '../../src/checkpoints/checkpointsRestore';
import { Emitter } from '../../src/util/emitter';
import { silentLogger } from '../../src/util/logger';
import { checkpointContent, DirectoryBlobs, readForCheckpoint } from '../../src/checkpoints/checkpointDisk';
import { ReviewWriter, watchedDocuments } from '../../src/review/reviewWriter';
import { sha256 } from './hashes';
import { DiskBackedDocuments } from './memoryDocuments';

/** Workspace state as a plain map: what a reloaded window reads back. */
export function memoryIndex(state = new Map<string, unknown>()): CheckpointIndexStorage & { state: Map<string, unknown> } {
  return {
    state,
    read: () => state.get('index'),
    write: async (index) => {
      state.set('index', JSON.parse(JSON.stringify(index)));
    },
  };
}

/** sha256 of every file under `root`, by path relative to it: the project's state, byte for byte. */
export function projectHashes(root: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else hashes[relative(root, path)] = sha256(readFileSync(path));
    }
  };
  walk(root);
  return hashes;
}

/**
 * One workspace with Tandem's real file service, change ledger, checkpoints (copies in a real
 * folder, the index in a map) and review writer, over the disk-backed document stand-in: an
 * agent can change files through the editor (fs/write_text_file) or on disk (tool calls).
 */
export function checkpointedWorkspace(workspace: string, storage: string, options: { index?: ReturnType<typeof memoryIndex>; limits?: CheckpointLimits } = {}) {
  const documents = new DiskBackedDocuments([workspace]);
  const ledger = new ChangeLedger();
  const feed = new ChangeFeed(ledger);
  documents.onDidChange(({ path, text }) => feed.documentChanged(path, text));
  const index = options.index ?? memoryIndex();
  const store = new CheckpointStore(new DirectoryBlobs(storage), index, options.limits ?? CHECKPOINT_LIMITS, silentLogger);
  const recorder = new CheckpointRecorder(store, { read: checkpointContent }, () => ledger.files().map((file) => file.path));
  // One watched feed, as the window's scope wires it: agents' writes and review's own undo and redo.
  const changes = recorder.watch(feed);
  const updates = new Emitter<acp.SessionUpdate>();
  const files = createSessionFiles({
    key: 'session-1',
    cwd: workspace,
    thread: { findLastToolCall: () => undefined, addNotice: () => undefined },
    logger: silentLogger,
    onUpdate: updates.event,
    onPermissionRequest: () => ({ dispose: () => undefined }),
    agentInfo: () => null,
  }, {
    roots: () => [workspace],
    documents,
    decisions: { allowOutsideRoots: async () => false, overwriteUserChanges: async () => true, allowExecutionControlWrite: async () => true },
    changes,
  });
  const fs = agentFs(files);
  const reader: RestoreReader = {
    current: (path) => readForCheckpoint(path, [workspace]),
    unsaved: (path) => documents.open.has(path) && (!existsSync(path) || readFileSync(path, 'utf8') !== documents.open.get(path)),
    label: (path) => relative(workspace, path),
  };
  const writer = new ReviewWriter(ledger, documents);
  // Review's undo and redo, written as the review controller writes them.
  const review = new ReviewWriter(ledger, watchedDocuments(documents, () => changes));
  const restorer = new CheckpointRestorer(store, ledger, (writes) => writer.redo(writes), reader);
  const thread: { kind: string; id: string; text: string }[] = [];
  let toolCalls = 0;

  /** The checkpoints as the editor side gives them to the panel. */
  const service: CheckpointService = {
    store,
    recorder,
    plan: (checkpointId) => planRestore(store, checkpointId, reader),
    restore: (plan, keepMine, label) => restorer.restore(plan, keepMine, label),
    label: (path) => reader.label(path),
  };
  return {
    documents, ledger, store, recorder, restorer, fs, reader, index, service,
    /** A user message: its checkpoint, as the prompt path takes it. */
    async prompt(text: string): Promise<Checkpoint> {
      const checkpoint = await recorder.beforePrompt('tab-1', text);
      thread.push({ kind: 'user', id: `e${thread.length + 1}`, text });
      recorder.sent(checkpoint, { length: thread.length, entryAt: (at) => thread[at] });
      return checkpoint;
    },
    /** The agent writes through the editor (fs/write_text_file). */
    async editorWrite(path: string, content: string): Promise<void> {
      // Never aborted: the turn is not cancelled.
      await fs.writeTextFile({ sessionId: 's', path, content }, new AbortController().signal);
    },
    /** The agent changes the disk itself in an edit tool call (null deletes). */
    diskWrite(path: string, after: string | Buffer | null): void {
      const toolCallId = `t${++toolCalls}`;
      updates.fire({ sessionUpdate: 'tool_call', toolCallId, title: 'Edit', kind: after === null ? 'delete' : 'edit', status: 'pending', locations: [{ path }] });
      if (after === null) rmSync(path);
      else writeFileSync(path, after);
      updates.fire({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
    },
    plan: service.plan,
    /** The user undoes one of the agent's hunks in review. */
    async undoHunk(path: string, hunkId: string): Promise<void> {
      assert.deepEqual(await review.undo([ledger.undoHunk(path, hunkId)]), [], 'the undo is written');
    },
    /** Plans and restores, keeping the user's version of `keepMine`. */
    async restoreTo(checkpointId: string, keepMine: readonly string[] = []) {
      const plan = await planRestore(store, checkpointId, reader);
      const outcome = await restorer.restore(plan, new Set(keepMine), 'test');
      return { plan, outcome };
    },
    dispose(): void {
      fs.dispose();
      store.dispose();
    },
  };
}
