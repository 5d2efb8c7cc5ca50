import { fileChangingKinds } from '../acp/toolKinds';
import type { WrittenText } from '../files/diskText';
import type { DocumentStore } from '../files/documents';
import { EditorFsService, type FileService, type FsDecisions } from '../files/fileService';
import { DiskChangeTracker } from '../review/diskChangeTracker';
import { onTurnStart } from '../review/turnStarts';
import type { ContentEncoding, RecordedChange } from '../review/types';
import type { FsSessionContext } from './sessionContext';

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
 * A session's file service: files from the editor, plus snapshots of what edit tool calls
 * touch, so every change reaches the ledger whichever path the agent took (through this
 * service or behind it, on disk).
 */
export function createSessionFiles(session: FsSessionContext, options: SessionFsOptions): FileService {
  const changes = { record: (path: string, change: RecordedChange) => options.changes.record(path, change, session.key) };
  const documents: DocumentStore = {
    openText: (path) => options.documents.openText(path),
    codec: options.documents.codec,
    write: async (path, text) => {
      let written: WrittenText = { text };
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
    read: (request, signal) => fs.read(request, signal),
    write: (path, content, signal) => fs.write(path, content, signal),
    // The tracker first: calls the agent never finished are compared while the ledger still listens.
    dispose: () => {
      tracker.dispose();
      fs.dispose();
    },
  };
}
