import { isAbsolute, relative } from 'node:path';
import type { CheckpointService } from '../checkpoints/checkpointService';
import type { FileService } from '../files/fileService';
import type { ReviewSource } from '../review/reviewSource';
import type { CommandService } from '../terminals/terminalService';
import type { SessionContext } from './sessionContext';

/**
 * Where one conversation works: its folders (the first is the agent's cwd and where commands
 * run unless it names another), how its paths read to the user, its review ledger and
 * checkpoints, and the editor services a session of it gets. The composition root builds one
 * per conversation and hands it down; nothing below it asks the editor for its folders. Today
 * every conversation gets the window's scope; a conversation in a git worktree is another one.
 */
export interface WorkspaceScope {
  /** Names the scope in the log. */
  readonly name: string;
  /** Read each time: the user can add and remove folders while conversations run. */
  roots(): readonly string[];
  /** A path as the user reads it (relative to its folder inside the scope). */
  label(path: string): string;
  /** Pending agent changes as the panel reviews them; null where nothing is held for review. */
  readonly review: ReviewSource | null;
  /** Points to go back to; null where none are kept (no storage, a replay). */
  readonly checkpoints: CheckpointService | null;
  /** Files for a session, served from the editor and written through review; absent: not offered. */
  files?(session: SessionContext): FileService;
  /** Commands for a session, run as real processes the user sees; absent: not offered. */
  commands?(session: SessionContext): CommandService;
}

/** The folder a conversation's agent starts in: the scope's first; null without one. */
export function scopeCwd(scope: WorkspaceScope | null): string | null {
  return scope?.roots()[0] ?? null;
}

/** What a folder scope offers beyond its folder; missing parts are not offered. */
export type FolderScopeParts = Partial<Pick<WorkspaceScope, 'review' | 'checkpoints' | 'files' | 'commands'>>;

/** A scope of one folder with the parts given: a replay's, or a test's. */
export function folderScope(root: string, parts: FolderScopeParts = {}): WorkspaceScope {
  return {
    name: root,
    roots: () => [root],
    label: (path) => {
      const inside = relative(root, path);
      return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
    },
    review: parts.review ?? null,
    checkpoints: parts.checkpoints ?? null,
    ...(parts.files ? { files: parts.files } : {}),
    ...(parts.commands ? { commands: parts.commands } : {}),
  };
}
