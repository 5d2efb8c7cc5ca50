import type { Disposable } from '../util/disposable';
import type { Logger } from '../util/logger';
import type { DocumentStore } from './documents';
import { readDiskText } from './diskText';
import { assertLeadsTo, danglingLinkRefusal, FileRefused } from './fileAccess';
import { executionControlReason } from './executionControlFiles';
import { resolveAgentPath, type ResolvedPath } from './pathBoundary';
import { ServiceError, throwIfCancelled } from './serviceError';
import { conformTo, shapeOf, sliceLines } from './textContent';

/** Decisions only the user can make. */
export interface FsDecisions {
  /** An agent wants a path outside the session's roots. */
  allowOutsideRoots(path: string, operation: 'read' | 'write'): Promise<boolean>;
  /** The user changed the file after the agent last read it. */
  overwriteUserChanges(path: string, userText: string, agentText: string): Promise<boolean>;
  /** The agent writes a file that controls what runs (git hooks, tasks, agent settings): asked every time. */
  allowExecutionControlWrite(path: string, reason: string): Promise<boolean>;
}

export interface ChangeRecorder {
  /**
   * `owner`: the session that made the change (its key). `encoding` 'bytes': `before` and
   * `after` are the file's bytes, one character per byte (latin1), for a file not in UTF-8.
   */
  record(path: string, change: { before: string | null; after: string | null; origin: 'editor' | 'disk'; toolCallId?: string; encoding?: 'text' | 'bytes' }, owner?: string): void;
}

export interface FsServiceOptions {
  cwd: string;
  roots(): readonly string[];
  documents: DocumentStore;
  decisions: FsDecisions;
  changes: ChangeRecorder;
  /** The edit tool call a write most likely belongs to (agents do not say). */
  currentEditToolCall(): string | undefined;
  logger: Logger;
}

/** A read of a text file: all of it, or `limit` lines from the 1-based `line`. */
export interface FileReadRequest {
  path: string;
  line?: number | null;
  limit?: number | null;
}

/** Reading and writing files as the editor holds them, for any protocol (see workspace/acpV1Ports.ts). */
export interface FileService extends Disposable {
  /** The text the user sees (unsaved edits included); a `notFound` ServiceError when the file does not exist. */
  read(request: FileReadRequest, signal?: AbortSignal): Promise<string>;
  /** Makes `content` the file's text through the editor, held for review. */
  write(path: string, content: string, signal?: AbortSignal): Promise<void>;
}

/**
 * Files served from the editor. Reads see unsaved text; writes become undoable edits that
 * keep the file's line endings and BOM and enter the change ledger; nothing outside the
 * session's roots is touched without the user's yes; a user's newer edits are not clobbered.
 */
export class EditorFsService implements FileService {
  /** What the agent last saw of each file, to notice the user changing it in between. */
  private readonly lastSeen = new Map<string, string>();
  private readonly outsideAllowed = new Set<string>();

  constructor(private readonly options: FsServiceOptions) {}

  async read(request: FileReadRequest, signal?: AbortSignal): Promise<string> {
    const target = await this.checkedPath(request.path, 'read');
    throwIfCancelled(signal);
    const text = await this.currentText(target);
    if (text === null) throw new ServiceError('notFound', `${target.path} does not exist`, { path: target.path });
    this.lastSeen.set(workingPath(target), text);
    return sliceLines(text, request.line, request.limit);
  }

  async write(requestedPath: string, content: string, signal?: AbortSignal): Promise<void> {
    const target = await this.checkedPath(requestedPath, 'write');
    const path = workingPath(target);
    const before = await this.currentText(target);
    const seen = this.lastSeen.get(path);
    const next = before === null ? content : conformTo(shapeOf(before), content);
    if (before !== null && seen !== undefined && seen !== before && before !== next) {
      const overwrite = await this.options.decisions.overwriteUserChanges(path, before, next);
      if (!overwrite) {
        throw new ServiceError('conflict', `The user changed ${path} after you read it and kept their version. Read the file again before editing it.`, { path });
      }
    }
    let after = next;
    if (before !== next) {
      await this.confirmExecutionControl(path);
      // Every question above gave the agent time to give up: nothing is written for a cancelled request.
      throwIfCancelled(signal);
      // The question above, or the read, gave time to swap a link: the write goes where the check said, or nowhere.
      try {
        assertLeadsTo(target.path, target.realPath);
      } catch (error) {
        throw asAgentError(error);
      }
      const written = await this.options.documents.write(path, next).catch((error: unknown) => {
        throw asAgentError(error);
      });
      after = written.text;
      const toolCallId = this.options.currentEditToolCall();
      const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
      this.options.changes.record(path, written.bytes
        ? { before: latin1(written.bytes.before), after: latin1(written.bytes.after), origin: 'editor', toolCallId, encoding: 'bytes' }
        : { before, after, origin: 'editor', toolCallId });
    }
    this.lastSeen.set(path, after);
  }

  dispose(): void {
    this.lastSeen.clear();
  }

  /** No grant, auto-allow or earlier yes covers a file that decides what runs next. */
  private async confirmExecutionControl(path: string): Promise<void> {
    const reason = executionControlReason(path, this.options.roots());
    if (reason === null || (await this.options.decisions.allowExecutionControlWrite(path, reason))) return;
    throw new ServiceError('invalid', `Refused: ${path} controls what runs (${reason}) and the user did not allow this write.`, { path });
  }

  private async checkedPath(requested: string, operation: 'read' | 'write'): Promise<ResolvedPath> {
    const resolved = resolveAgentPath(requested, this.options.cwd, this.options.roots());
    if (resolved.unusable !== undefined) throw new ServiceError('invalid', `Refused: ${JSON.stringify(requested)} names no file: ${resolved.unusable}.`, { path: requested });
    if (operation === 'write' && resolved.danglingLink) throw asAgentError(danglingLinkRefusal(resolved.path, resolved.realPath));
    if (resolved.inside || this.outsideAllowed.has(`${operation}:${resolved.realPath}`)) return resolved;
    const shown = shownPath(resolved);
    this.options.logger.warn(`agent asked to ${operation} ${shown}, outside the workspace`);
    if (!(await this.options.decisions.allowOutsideRoots(shown, operation))) {
      throw new ServiceError('invalid', `Refused: ${shown} is outside the workspace and the user did not allow this ${operation}.`, { path: requested });
    }
    this.outsideAllowed.add(`${operation}:${resolved.realPath}`);
    return resolved;
  }

  /**
   * The text the user sees: the open buffer, else the disk in the file's encoding (null when the
   * file does not exist). The disk read opens the checked real path itself, so a link swapped
   * after the check changes nothing.
   */
  private async currentText(target: ResolvedPath): Promise<string | null> {
    const path = workingPath(target);
    const open = this.options.documents.openText(path);
    if (open !== undefined) return open;
    const disk = await readDiskText(path, target.realPath, this.options.documents.codec).catch((error: unknown) => {
      throw asAgentError(error);
    });
    return disk?.text ?? null;
  }
}

/**
 * Inside the workspace a file goes by the name the agent used, which is the one its editor has;
 * outside, by the real file the user allowed, so no link can later point the name elsewhere.
 */
function workingPath(target: ResolvedPath): string {
  return target.inside ? target.path : target.realPath;
}

function shownPath(resolved: ResolvedPath): string {
  if (resolved.danglingLink) return `${resolved.path} (a link to ${resolved.realPath}, which does not exist)`;
  return resolved.realPath === resolved.path ? resolved.path : `${resolved.path} (really ${resolved.realPath})`;
}

/** A file refusal reaches the agent as a refused request with its sentence; other errors as they are. */
function asAgentError(error: unknown): unknown {
  return error instanceof FileRefused ? new ServiceError('invalid', error.message, { path: error.path }) : error;
}
