/**
 * The disk side of checkpoints, with Node only (no VS Code API): a folder of content-addressed
 * copies in the extension's workspace storage, and exact reads of workspace files for a
 * checkpoint or a restore.
 */
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CheckpointBlobs, FileContent } from './checkpoints';
import type { CurrentFile } from './checkpointsPlan';
import { codeOf, isMissing, readRegularFile } from '../files/fileAccess';
import { MAX_KEPT_FILE_BYTES } from '../review/diskChangeTracker';
import { followLinks, resolveAgentPath } from '../files/pathBoundary';
import { errorMessage } from '../redaction/redactedLog';

const HASH = /^[0-9a-f]{64}$/;

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** Copies as files named by their sha256, in 256 subfolders; written whole (temp file, then rename) or not at all. */
export class DirectoryBlobs implements CheckpointBlobs {
  private temp = 0;

  constructor(private readonly root: string) {}

  async put(hash: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(hash);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${this.temp++}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  async get(hash: string): Promise<Uint8Array | null> {
    try {
      return await readFile(this.pathOf(hash));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }

  async list(): Promise<string[]> {
    const hashes: string[] = [];
    for (const folder of await readdir(this.root).catch(() => [])) {
      const names = await readdir(join(this.root, folder)).catch(() => []);
      hashes.push(...names.filter((name) => HASH.test(name)));
    }
    return hashes;
  }

  private pathOf(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`Not a sha256: ${hash}`);
    return join(this.root, hash.slice(0, 2), hash);
  }
}

/** The nearest folder on the way to `path` that does not exist, or null when its folder is there. */
async function missingFolder(path: string): Promise<string | null> {
  let missing: string | null = null;
  for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) {
    const entry = await lstat(folder).catch((error: unknown) => (isMissing(error) ? null : undefined));
    if (entry !== null) break;
    missing = folder;
  }
  return missing;
}

/**
 * A file as it is now, exactly: its bytes, no file, or why a checkpoint may not take or restore
 * it. With `roots`, a file outside them (or reached through a link that leads out) is left alone.
 */
export async function readForCheckpoint(path: string, roots?: readonly string[]): Promise<CurrentFile> {
  if (roots && !resolveAgentPath(path, dirname(path), roots).inside) return { kind: 'unusable', reason: 'it is not inside a workspace folder open now' };
  const { realPath } = followLinks(path);
  let entry;
  try {
    entry = await lstat(realPath);
  } catch (error) {
    if (isMissing(error)) return { kind: 'absent', missingFolder: await missingFolder(realPath) };
    return { kind: 'unusable', reason: `it could not be read (${codeOf(error) ?? errorMessage(error)})` };
  }
  if (entry.isDirectory()) return { kind: 'unusable', reason: 'a folder is in its place now' };
  if (!entry.isFile()) return { kind: 'unusable', reason: 'it is no longer a regular file' };
  if (entry.size > MAX_KEPT_FILE_BYTES) return { kind: 'unusable', reason: `it is ${megabytes(entry.size)}, over the ${megabytes(MAX_KEPT_FILE_BYTES)} of which Tandem keeps a copy` };
  try {
    const bytes = await readRegularFile(realPath, MAX_KEPT_FILE_BYTES);
    return bytes === null ? { kind: 'absent', missingFolder: null } : { kind: 'file', bytes };
  } catch (error) {
    return { kind: 'unusable', reason: `it could not be read (${codeOf(error) ?? errorMessage(error)})` };
  }
}

/** The file's content for a checkpoint: its bytes, null for no file, or why no copy could be taken. */
export async function checkpointContent(path: string): Promise<FileContent> {
  const current = await readForCheckpoint(path);
  if (current.kind === 'file') return current.bytes;
  return current.kind === 'absent' ? null : { unkept: current.reason };
}
