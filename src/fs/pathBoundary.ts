import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export interface ResolvedPath {
  /** Absolute, normalized path as the agent named it (`..` resolved). */
  path: string;
  /** The same path with every existing symlink along it resolved. */
  realPath: string;
  /** True when the real path is inside one of the session's roots. */
  inside: boolean;
}

function isWithin(child: string, root: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Resolves symlinks of the longest existing prefix, so a link out of the workspace is seen. */
export function realPathOf(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length > 0 ? resolve(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

/**
 * Where a path an agent names really points, and whether that is inside the session's roots.
 * Relative paths (not allowed by ACP, but sent by some agents) resolve against the cwd.
 */
export function resolveAgentPath(path: string, cwd: string, roots: readonly string[]): ResolvedPath {
  const absolute = resolve(cwd, path);
  const realPath = realPathOf(absolute);
  const realRoots = roots.map((root) => realPathOf(resolve(root)));
  return { path: absolute, realPath, inside: realRoots.some((root) => isWithin(realPath, root)) };
}
