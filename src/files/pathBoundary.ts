import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ResolvedPath {
  /** Absolute, normalized path as the agent named it (`..` resolved, a `file:` URI turned into its path). */
  path: string;
  /** The same path with every symlink along it followed, as far as they lead. */
  realPath: string;
  /** True when the real path is inside one of the session's roots and no link along it leads nowhere. */
  inside: boolean;
  /**
   * A link along the path leads to nothing (its target is missing, the links loop, or a folder on
   * the way cannot be looked into). Such a path is never inside: where it would land can change
   * the moment someone creates the target, so no file is ever created through it.
   */
  danglingLink: boolean;
  /** Why the path can name no file at all (a NUL byte, a file URI of another machine); never inside. */
  unusable?: string;
}

export interface LinkResolution {
  realPath: string;
  danglingLink: boolean;
}

/** As Linux's MAXSYMLINKS: more links than this in one path is a loop. */
const MAX_LINKS = 40;

function isWithin(child: string, root: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function components(path: string): string[] {
  return path.split(sep).filter((part) => part.length > 0);
}

type Entry = 'missing' | 'unknown' | { link: string | null };

function entryAt(path: string): Entry {
  try {
    const stats = lstatSync(path);
    return { link: stats.isSymbolicLink() ? readlinkSync(path) : null };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unknown';
  }
}

/**
 * Follows every symlink of an absolute path one component at a time, as the kernel would, so a
 * link whose target is missing is seen as such instead of being taken for a new file next to it.
 * The part after the first missing component is kept as named (it holds no links yet).
 */
export function followLinks(absolute: string): LinkResolution {
  let done = parse(absolute).root;
  let pending = components(absolute.slice(done.length));
  // How many components are left once the outermost link being followed is fully resolved.
  let linkEnd: number | undefined;
  let links = 0;
  while (pending.length > 0) {
    if (linkEnd !== undefined && pending.length <= linkEnd) linkEnd = undefined;
    const [name = '', ...rest] = pending;
    const candidate = join(done, name);
    const entry = entryAt(candidate);
    if (entry === 'missing' || entry === 'unknown') {
      return { realPath: resolve(candidate, ...rest), danglingLink: entry === 'unknown' || linkEnd !== undefined };
    }
    if (entry.link === null) {
      done = candidate;
      pending = rest;
      continue;
    }
    if (++links > MAX_LINKS) return { realPath: resolve(candidate, ...rest), danglingLink: true };
    const target = resolve(done, entry.link);
    linkEnd ??= rest.length;
    done = parse(target).root;
    pending = [...components(target.slice(done.length)), ...rest];
  }
  return { realPath: done, danglingLink: false };
}

/** The path a string names, or why it names none. `file:` URIs are taken as what they mean. */
function namedPath(path: string): string | { unusable: string } {
  let named = path;
  if (/^file:/i.test(path)) {
    try {
      named = fileURLToPath(path);
    } catch {
      return { unusable: 'it is a file URI that names no file on this machine' };
    }
  }
  return named.includes('\0') ? { unusable: 'it contains a NUL byte' } : named;
}

/**
 * Where a path an agent names really points, and whether that is inside the session's roots.
 * Relative paths (not allowed by ACP, but sent by some agents) resolve against the cwd. Paths
 * are compared byte for byte, as the file system compares them: no case or Unicode folding.
 */
export function resolveAgentPath(path: string, cwd: string, roots: readonly string[]): ResolvedPath {
  const named = namedPath(path);
  if (typeof named !== 'string') {
    const absolute = resolve(cwd, path);
    return { path: absolute, realPath: absolute, inside: false, danglingLink: false, unusable: named.unusable };
  }
  const absolute = resolve(cwd, named);
  const { realPath, danglingLink } = followLinks(absolute);
  const realRoots = roots.map((root) => followLinks(resolve(root)).realPath);
  return { path: absolute, realPath, danglingLink, inside: !danglingLink && realRoots.some((root) => isWithin(realPath, root)) };
}
