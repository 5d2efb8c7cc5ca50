import { quirksOf } from '../acp/agentQuirks';
import type { FsPort } from '../acp/clientPorts';
import type { Disposable } from '../util/disposable';
import { fileChangingKinds } from '../contract/toolKinds';
import { DiskChangeTracker } from './diskChangeTracker';
import { onTurnStart } from './turnStarts';
import type { FsSessionContext } from './fsContext';
import { EditorFsService, type FsDecisions } from '../files/fsService';
import { type DocumentStore } from '../files/documents';
import type { ContentEncoding, RecordedChange } from './types';

export interface SessionFsOptions {
  roots(): readonly string[];
  documents: DocumentStore;
  decisions: FsDecisions;
  changes: {
    /** `owner`: the session that made the change (its key). */
    record(path: string, change: RecordedChange, owner?: string): void;
    alreadyRecorded(path: string, text: string | null, encoding: ContentEncoding): boolean;
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
  const changes = { record: (path: string, change: RecordedChange) => options.changes.record(path, change, session.key) };
  const documents: DocumentStore = {
    openText: (path) => options.documents.openText(path),
    write: async (path, text) => {
      let written = text;
      await options.changes.agentWrite(path, async () => {
        written = await options.documents.write(path, text);
      });
      return written;
    },
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
    onPermissionRequest: session.onPermissionRequest,
    ...(session.promptUnderWay ? { promptUnderWay: session.promptUnderWay } : {}),
    onTurnStart: session.thread.onDelta ? onTurnStart(session.thread.onDelta, session.onUpdate) : () => ({ dispose: () => undefined }),
    changes,
    alreadyRecorded: (path, text, encoding) => options.changes.alreadyRecorded(path, text, encoding),
    onDiskChanged: (paths) => options.onDiskChanged?.(paths),
    notify: (text) => session.thread.addNotice('warning', text),
    logger: session.logger,
  });
  return {
    readTextFile: (params) => fs.readTextFile(params),
    writeTextFile: (params) => fs.writeTextFile(params),
    // The tracker first: calls the agent never finished are compared while the ledger still listens.
    dispose: () => {
      tracker.dispose();
      fs.dispose();
    },
  };
}
