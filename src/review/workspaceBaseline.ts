import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { missing, readDiskNow, type DiskContent, type Kept } from './diskSnapshot';
import { followLinks } from '../files/pathBoundary';

/**
 * Bounds of one baseline: at most this many files are kept, none over the per-file size, and
 * no more bytes in all; at most this many folder entries are looked at. A workspace past them
 * is kept in part, and a path not kept is then "not known", never "no file".
 */
export const BASELINE_LIMITS = { files: 5_000, fileBytes: 1024 * 1024, totalBytes: 32 * 1024 * 1024, entries: 50_000 } as const;

/** Folders of tools, dependencies and build output: heavy, and rarely what an agent edits by hand. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', 'node_modules', 'bower_components', '.venv', 'venv', '__pycache__', '.mypy_cache', '.pytest_cache', '.tox',
  '.gradle', '.next', '.nuxt', '.turbo', '.parcel-cache', '.cache', 'dist', 'out', 'build', 'target', 'coverage',
]);

interface KeptFile {
  /** Size, times and inode when it was read: the same stamp later means the copy still holds. */
  stamp: string;
  content: Kept;
}

function stampOf(stats: Stats): string {
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
}

function entriesOf(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The workspace's files as they were when the agent's turn started, for a tool call whose own
 * snapshot came too late (the agent wrote the file before Tandem saw the call). Regular files
 * only (links and pipes are never followed or opened), read as the tracker's snapshots are; a
 * file whose stamp did not change since the last baseline is not read again.
 */
export class WorkspaceBaseline {
  private files = new Map<string, KeptFile>();
  /** Real roots walked in full: a path under one that is not kept did not exist. */
  private completeRoots: string[] = [];
  /** Files seen but not kept (too large, unreadable): not known, rather than missing. */
  private unknown = new Set<string>();

  constructor(private readonly roots: () => readonly string[]) {}

  /** Takes the baseline now: what the workspace holds before the agent's next step. */
  refresh(): void {
    const previous = this.files;
    const walk = { files: new Map<string, KeptFile>(), unknown: new Set<string>(), entries: 0, bytes: 0, complete: true };
    const completeRoots: string[] = [];
    for (const root of this.roots()) {
      const realRoot = followLinks(resolve(root)).realPath;
      walk.complete = true;
      this.walk(realRoot, previous, walk);
      if (walk.complete) completeRoots.push(realRoot);
    }
    this.files = walk.files;
    this.unknown = walk.unknown;
    this.completeRoots = completeRoots;
  }

  /** What the file held at the baseline: its copy, "no file", or undefined when not known. */
  before(path: string): DiskContent | undefined {
    const realPath = followLinks(resolve(path)).realPath;
    const kept = this.files.get(realPath);
    if (kept) return kept.content;
    if (this.unknown.has(realPath)) return undefined;
    return this.completeRoots.some((root) => this.walkedUnder(root, realPath)) ? missing : undefined;
  }

  /** A change Tandem saw and recorded: later calls of the same turn start from it. */
  update(path: string, content: DiskContent): void {
    const realPath = followLinks(resolve(path)).realPath;
    this.unknown.delete(realPath);
    // No stamp: it is read again at the next baseline.
    if (content.kind === 'kept' && content.content !== null) this.files.set(realPath, { stamp: '', content });
    else if (content.kind === 'kept') this.files.delete(realPath);
    else this.unknown.add(realPath);
  }

  private walkedUnder(root: string, path: string): boolean {
    const inside = relative(root, path);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) return false;
    return !inside.split(sep).slice(0, -1).some((folder) => SKIPPED_FOLDERS.has(folder));
  }

  /** Breadth first, so that a workspace past the bounds keeps its top folders. */
  private walk(root: string, previous: ReadonlyMap<string, KeptFile>, walk: { files: Map<string, KeptFile>; unknown: Set<string>; entries: number; bytes: number; complete: boolean }): void {
    const folders = [root];
    for (let folder = folders.shift(); folder !== undefined; folder = folders.shift()) {
      for (const entry of entriesOf(folder)) {
        if (++walk.entries > BASELINE_LIMITS.entries || walk.files.size >= BASELINE_LIMITS.files) {
          walk.complete = false;
          return;
        }
        const path = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED_FOLDERS.has(entry.name)) folders.push(path);
        } else if (entry.isFile()) {
          this.keep(path, previous.get(path), walk);
        } else {
          walk.unknown.add(path);
        }
      }
    }
  }

  private keep(path: string, previous: KeptFile | undefined, walk: { files: Map<string, KeptFile>; unknown: Set<string>; bytes: number; complete: boolean }): void {
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch {
      walk.unknown.add(path);
      return;
    }
    if (!stats.isFile() || stats.size > BASELINE_LIMITS.fileBytes || walk.bytes + stats.size > BASELINE_LIMITS.totalBytes) {
      walk.unknown.add(path);
      if (walk.bytes + stats.size > BASELINE_LIMITS.totalBytes) walk.complete = false;
      return;
    }
    const stamp = stampOf(stats);
    // Stat before read: a change after the stat gives a new stamp, so it is read at the next baseline.
    const content = previous?.stamp === stamp ? previous.content : readDiskNow(path);
    if (content.kind !== 'kept' || content.content === null) {
      walk.unknown.add(path);
      return;
    }
    walk.bytes += stats.size;
    walk.files.set(path, { stamp, content });
  }
}
