import { constants, lstatSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { followLinks, resolveAgentPath } from './pathBoundary';

/** A file Tandem will not open or write, with the sentence that says why. */
export class FileRefused extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
    this.name = 'FileRefused';
  }
}

// Where the platform has them. A checked real path has no link at its end, so one found there
// was swapped in; and a pipe swapped in must not hold a thread of the pool waiting for a writer.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NO_WAIT = constants.O_NONBLOCK ?? 0;

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  return stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : 'not a regular file';
}

function changedWhileOpening(path: string): FileRefused {
  return new FileRefused(path, `${path} changed while it was being opened (a link or folder along it was replaced), so nothing was read or written. Try again.`);
}

export function danglingLinkRefusal(path: string, target: string): FileRefused {
  return new FileRefused(path, `${path} is reached through a link to ${target}, which does not exist; files are never created through a link.`);
}

function assertRegular(path: string, stats: Stats): void {
  if (stats.isSymbolicLink()) throw changedWhileOpening(path);
  if (!stats.isFile()) throw new FileRefused(path, `${path} is ${kindOf(stats)}, not a regular file: only regular files are read or written.`);
}

function assertAtMost(path: string, size: number, maxBytes: number): void {
  if (size > maxBytes) throw new FileRefused(path, `${path} is ${(size / 1048576).toFixed(1)} MB, over the ${maxBytes / 1048576} MB limit for text files.`);
}

/** A Node file system error's code (ENOENT, ELOOP, ...), if it has one. */
export function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** ENOENT and ENOTDIR: there is no such file (or no such folder on its way). */
export const isMissing = (error: unknown) => codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR';

async function entryAt(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * The handle must be the file at `realPath` itself: a folder along the path replaced by a link
 * between the check and the open would have opened a file somewhere else. Linux names the open
 * file in /proc; elsewhere the file now at the path must be the same one (device and inode).
 */
async function assertOpenedIs(handle: FileHandle, stats: Stats, realPath: string): Promise<void> {
  const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (opened !== undefined) {
    if (opened !== realPath) throw changedWhileOpening(realPath);
    return;
  }
  const now = await stat(realPath).catch(() => undefined);
  if (now?.dev !== stats.dev || now.ino !== stats.ino) throw changedWhileOpening(realPath);
}

/** Opens the regular file at a checked real path, and proves the handle is that file. */
async function openChecked(realPath: string, flags: number): Promise<{ handle: FileHandle; stats: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(realPath, flags | NO_FOLLOW | NO_WAIT, 0o666);
  } catch (error) {
    if (codeOf(error) === 'ELOOP') throw changedWhileOpening(realPath);
    // A socket, or a pipe opened for writing with no reader: refused before anything waited.
    if (codeOf(error) === 'ENXIO' || codeOf(error) === 'EOPNOTSUPP') throw new FileRefused(realPath, `${realPath} is a pipe or socket, not a regular file: only regular files are read or written.`);
    throw error;
  }
  try {
    const stats = await handle.stat();
    assertRegular(realPath, stats);
    await assertOpenedIs(handle, stats, realPath);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads to the end, refusing as soon as the file holds more than `maxBytes` (it may grow after fstat). */
async function readAtMost(handle: FileHandle, path: string, size: number, maxBytes: number): Promise<Uint8Array> {
  let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      assertAtMost(path, length, maxBytes);
      buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(length, maxBytes + 1 - length))]);
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
}

/**
 * The bytes of the regular file at a real path that was checked (see resolveAgentPath), or null
 * when nothing is there. Check and use are one step: what is read is the file that was checked,
 * or nothing. Pipes, sockets, devices and folders are refused before they are opened, and a file
 * over `maxBytes` before a byte of it is read.
 */
export async function readRegularFile(realPath: string, maxBytes: number): Promise<Uint8Array | null> {
  const entry = await entryAt(realPath);
  if (entry === null) return null;
  assertRegular(realPath, entry);
  assertAtMost(realPath, entry.size, maxBytes);
  let opened: { handle: FileHandle; stats: Stats };
  try {
    opened = await openChecked(realPath, constants.O_RDONLY);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  try {
    assertAtMost(realPath, opened.stats.size, maxBytes);
    return await readAtMost(opened.handle, realPath, opened.stats.size, maxBytes);
  } finally {
    await opened.handle.close();
  }
}

/** True when a regular file is at `realPath`, false when nothing is (its folders are then created). */
async function prepareRegularFile(realPath: string): Promise<boolean> {
  const entry = await entryAt(realPath);
  if (entry !== null) {
    assertRegular(realPath, entry);
    return true;
  }
  await mkdir(dirname(realPath), { recursive: true });
  return false;
}

/** Creates an empty regular file at a checked real path unless one is there; never through a link. */
export async function ensureRegularFile(realPath: string): Promise<void> {
  if (await prepareRegularFile(realPath)) return;
  try {
    // O_EXCL: if a link was put at the path meanwhile, the open fails instead of creating its target.
    const { handle } = await openChecked(realPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    await handle.close();
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
    await prepareRegularFile(realPath);
  }
}

/** Makes `content` (bytes as they are, text as UTF-8) the exact content of the regular file at a checked real path, creating it if missing. */
export async function writeRegularFile(realPath: string, content: string | Uint8Array): Promise<void> {
  await prepareRegularFile(realPath);
  const { handle } = await openChecked(realPath, constants.O_WRONLY | constants.O_CREAT);
  try {
    await handle.truncate(0);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** True when the regular file at a checked real path holds exactly `expected` (null: nothing is there). */
export async function holdsExactly(realPath: string, expected: Uint8Array | null): Promise<boolean> {
  const entry = await entryAt(realPath);
  if (entry === null || expected === null) return entry === null && expected === null;
  assertRegular(realPath, entry);
  if (entry.size !== expected.length) return false;
  const bytes = await readRegularFile(realPath, expected.length).catch((error: unknown) => {
    // Replaced or grown while it was read: it holds something else now.
    if (error instanceof FileRefused) return null;
    throw error;
  });
  return bytes !== null && Buffer.compare(bytes, expected) === 0;
}

/**
 * Exact content for the file `path` (absolute) names, checked as writeTarget does: bytes as they
 * are, text as UTF-8, null removes the entry (a link itself, not what it points to). With
 * `replaces` (null: no file), only while the file still holds exactly that: what the user (or
 * anything else) saved over it since is never overwritten.
 */
export async function replaceFileContent(path: string, roots: readonly string[], content: string | Uint8Array | null, replaces?: Uint8Array | null): Promise<void> {
  if (replaces !== undefined && !(await holdsExactly(writeTarget(path, roots), replaces))) {
    throw new FileRefused(path, 'it changed on disk since the agent\'s change, so Tandem left it as it is');
  }
  if (content === null) {
    // The entry goes from the real folder it was checked in.
    await rm(join(writeTarget(dirname(path), roots), basename(path)), { force: true });
    return;
  }
  await writeRegularFile(writeTarget(path, roots), content);
}

/**
 * The real file a write of `path` (absolute) lands on. A path named inside the roots must stay
 * inside with its links followed, and no link on the way may lead to nothing; a path named
 * outside them (which the user allowed) must name its real file, with no link on the way.
 */
export function writeTarget(path: string, roots: readonly string[]): string {
  const resolved = resolveAgentPath(path, dirname(path), roots);
  if (resolved.unusable !== undefined) throw new FileRefused(path, `${JSON.stringify(path)} names no file: ${resolved.unusable}.`);
  if (resolved.danglingLink) throw danglingLinkRefusal(path, resolved.realPath);
  if (!resolved.inside && resolved.realPath !== resolved.path) {
    throw new FileRefused(path, `${path} leads out of the workspace through a link (to ${resolved.realPath}), so nothing was written.`);
  }
  return resolved.realPath;
}

/**
 * Refuses when `path` no longer leads to `realPath` (a link along it changed since it was checked)
 * or something other than a regular file is now there. Synchronous, so it runs right before the
 * caller's next step; an lstat never waits on a pipe.
 */
export function assertLeadsTo(path: string, realPath: string): void {
  const now = followLinks(path);
  if (now.danglingLink) throw danglingLinkRefusal(path, now.realPath);
  if (now.realPath !== realPath) {
    throw new FileRefused(path, `${path} now leads to ${now.realPath} instead of ${realPath} (a link along it changed while Tandem waited), so nothing was written.`);
  }
  let entry: Stats | undefined;
  try {
    entry = lstatSync(realPath);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (entry) assertRegular(realPath, entry);
}
