import * as acp from '@agentclientprotocol/sdk';
import type { FsPort } from '../acp/clientPorts';
import type { Disposable } from '../util/disposable';
import type { Logger } from '../util/logger';
import { resolveAgentPath } from './pathBoundary';
import { conformTo, decodeText, looksBinary, MAX_TEXT_FILE_BYTES, shapeOf, sliceLines } from './textContent';

/** The editor's view of files: open documents first (unsaved text included), then the disk. */
export interface DocumentStore {
  /** The open document's current text, or undefined when the file is not open. */
  openText(path: string): string | undefined;
  /** The file's bytes on disk, or null when it does not exist. */
  readDisk(path: string): Promise<Uint8Array | null>;
  /** Makes `text` the file's content as one undoable edit of minimal changes, then saves (creating folders). */
  write(path: string, text: string): Promise<void>;
}

/** Decisions only the user can make. */
export interface FsDecisions {
  /** An agent wants a path outside the session's roots. */
  allowOutsideRoots(path: string, operation: 'read' | 'write'): Promise<boolean>;
  /** The user changed the file after the agent last read it. */
  overwriteUserChanges(path: string, userText: string, agentText: string): Promise<boolean>;
}

export interface ChangeRecorder {
  /** `owner`: the session that made the change (its key). */
  record(path: string, change: { before: string | null; after: string | null; origin: 'editor' | 'disk'; toolCallId?: string }, owner?: string): void;
}

export interface FsServiceOptions {
  cwd: string;
  roots(): readonly string[];
  documents: DocumentStore;
  decisions: FsDecisions;
  changes: ChangeRecorder;
  /** The edit tool call a write most likely belongs to (agents do not say). */
  currentEditToolCall(): string | undefined;
  /**
   * How to answer a read of a file that does not exist: the spec's "resource not found"
   * error, or empty text for agents that can only create files that way (see agentQuirks).
   */
  missingFileReadsAsEmpty(): boolean;
  logger: Logger;
}

/**
 * `fs/*` served from the editor. Reads see unsaved text; writes become undoable edits that
 * keep the file's line endings and BOM and enter the change ledger; nothing outside the
 * session's roots is touched without the user's yes; a user's newer edits are not clobbered.
 */
export class EditorFsService implements FsPort, Disposable {
  /** What the agent last saw of each file, to notice the user changing it in between. */
  private readonly lastSeen = new Map<string, string>();
  private readonly outsideAllowed = new Set<string>();

  constructor(private readonly options: FsServiceOptions) {}

  async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const path = await this.checkedPath(params.path, 'read');
    const text = await this.currentText(path);
    if (text === null) {
      if (this.options.missingFileReadsAsEmpty()) return { content: '' };
      throw acp.RequestError.resourceNotFound(path);
    }
    this.lastSeen.set(path, text);
    return { content: sliceLines(text, params.line, params.limit) };
  }

  async writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    const path = await this.checkedPath(params.path, 'write');
    const before = await this.currentText(path);
    const seen = this.lastSeen.get(path);
    const next = before === null ? params.content : conformTo(shapeOf(before), params.content);
    if (before !== null && seen !== undefined && seen !== before && before !== next) {
      const overwrite = await this.options.decisions.overwriteUserChanges(path, before, next);
      if (!overwrite) {
        throw acp.RequestError.invalidRequest({ path }, `The user changed ${path} after you read it and kept their version. Read the file again before editing it.`);
      }
    }
    if (before !== next) {
      await this.options.documents.write(path, next);
      this.options.changes.record(path, { before, after: next, origin: 'editor', toolCallId: this.options.currentEditToolCall() });
    }
    this.lastSeen.set(path, next);
    return {};
  }

  dispose(): void {
    this.lastSeen.clear();
  }

  private async checkedPath(requested: string, operation: 'read' | 'write'): Promise<string> {
    const resolved = resolveAgentPath(requested, this.options.cwd, this.options.roots());
    if (resolved.inside || this.outsideAllowed.has(`${operation}:${resolved.realPath}`)) return resolved.path;
    const shown = resolved.realPath === resolved.path ? resolved.path : `${resolved.path} (really ${resolved.realPath})`;
    this.options.logger.warn(`agent asked to ${operation} ${shown}, outside the workspace`);
    if (!(await this.options.decisions.allowOutsideRoots(shown, operation))) {
      throw acp.RequestError.invalidParams({ path: requested }, `Refused: ${shown} is outside the workspace and the user did not allow this ${operation}.`);
    }
    this.outsideAllowed.add(`${operation}:${resolved.realPath}`);
    return resolved.path;
  }

  /** The text the user sees: the open buffer, else the disk (null when the file does not exist). */
  private async currentText(path: string): Promise<string | null> {
    const open = this.options.documents.openText(path);
    if (open !== undefined) return open;
    const bytes = await this.options.documents.readDisk(path);
    if (bytes === null) return null;
    if (bytes.length > MAX_TEXT_FILE_BYTES) {
      throw acp.RequestError.invalidParams({ path }, `${path} is ${(bytes.length / 1048576).toFixed(1)} MB, over the ${MAX_TEXT_FILE_BYTES / 1048576} MB limit for text files.`);
    }
    if (looksBinary(bytes)) throw acp.RequestError.invalidParams({ path }, `${path} is a binary file, not text.`);
    return decodeText(bytes);
  }
}
