import { accessSync, constants, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Where a shell would look for `command`, in its order. */
function candidatesFor(command: string, pathVariable: string | undefined, cwd: string): string[] {
  return command.includes('/') || isAbsolute(command)
    ? [resolve(cwd, command)]
    : (pathVariable ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, command));
}

/** Finds an executable the way a shell would, so "not installed" can be said before spawning. */
export function findExecutable(command: string, pathVariable: string | undefined, cwd: string): string | null {
  for (const candidate of candidatesFor(command, pathVariable, cwd)) {
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

/** The same lookup without holding the thread: for lists of agents, where nothing waits on the answer. */
export async function isInstalled(command: string, pathVariable: string | undefined, cwd: string): Promise<boolean> {
  for (const candidate of candidatesFor(command, pathVariable, cwd)) {
    const found = await stat(candidate).then((stats) => stats.isFile() && access(candidate, constants.X_OK).then(() => true), () => false).catch(() => false);
    if (found) return true;
  }
  return false;
}
