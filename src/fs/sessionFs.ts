import { quirksOf } from '../acp/agentQuirks';
import type { FsPort } from '../acp/clientPorts';
import type { Disposable } from '../util/disposable';
import { fileChangingKinds } from '../contract/viewModel';
import { DiskChangeTracker } from './diskChangeTracker';
import type { FsSessionContext } from './fsContext';
import { EditorFsService, type ChangeRecorder, type DocumentStore, type FsDecisions } from './fsService';

export interface SessionFsOptions {
  roots(): readonly string[];
  documents: DocumentStore;
  decisions: FsDecisions;
  changes: ChangeRecorder & {
    alreadyRecorded(path: string, text: string | null): boolean;
    /** Runs an agent's write into the editor's documents, so its document changes are not taken for the user's. */
    agentWrite(path: string, write: () => Promise<void>): Promise<void>;
  };
  onDiskChanged?(paths: string[]): void;
}

/**
 * A session's file service: `fs/*` from the editor, plus snapshots of what edit tool calls
 * touch, so every change reaches the ledger whichever path the agent took.
 */
export function createSessionFs(session: FsSessionContext, options: SessionFsOptions): FsPort & Disposable {
  const changes: ChangeRecorder = { record: (path, change) => options.changes.record(path, change, session.key) };
  const documents: DocumentStore = {
    openText: (path) => options.documents.openText(path),
    readDisk: (path) => options.documents.readDisk(path),
    write: (path, text) => options.changes.agentWrite(path, () => options.documents.write(path, text)),
  };
  const fs = new EditorFsService({
    cwd: session.cwd,
    roots: options.roots,
    documents,
    decisions: options.decisions,
    changes,
    currentEditToolCall: () => session.thread.findLastToolCall((tool) => fileChangingKinds.has(tool.toolKind) && (tool.status === 'pending' || tool.status === 'in_progress'))?.toolCallId,
    missingFileReadsAsEmpty: () => quirksOf(session.agentInfo()).missingFileReadsAsEmpty,
    logger: session.logger,
  });
  const tracker = new DiskChangeTracker({
    cwd: session.cwd,
    roots: options.roots,
    onUpdate: session.onUpdate,
    changes,
    alreadyRecorded: (path, text) => options.changes.alreadyRecorded(path, text),
    onDiskChanged: (paths) => options.onDiskChanged?.(paths),
    logger: session.logger,
  });
  return {
    readTextFile: (params) => fs.readTextFile(params),
    writeTextFile: (params) => fs.writeTextFile(params),
    dispose: () => {
      tracker.dispose();
      fs.dispose();
    },
  };
}
