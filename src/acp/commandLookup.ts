import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Finds an executable the way a shell would, so "not installed" can be said before spawning. */
export function findExecutable(command: string, pathVariable: string | undefined, cwd: string): string | null {
  const candidates = command.includes('/') || isAbsolute(command)
    ? [resolve(cwd, command)]
    : (pathVariable ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, command));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return null;
}
