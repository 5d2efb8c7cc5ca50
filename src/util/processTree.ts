import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * A program can leave the process group Tandem started it in: Claude Code runs every Bash
 * command in a session of its own, a daemon calls setsid. Once its parent dies (an agent killed
 * by the OOM killer), it is reparented to init and no parent link leads back to it. What it
 * keeps is its environment: everything an agent or a command starts inherits a variable naming
 * its tree, and /proc shows each process's environment as it was started. A descendant that
 * drops its environment is still found while its parent chain reaches a marked process.
 */
export const TREE_VARIABLE = 'TANDEM_PROCESS_TREE';

/** Where /proc shows every process's parent and environment (Linux); elsewhere only the group is ended. */
export const treesTracked = process.platform === 'linux' && readableProc();

function readableProc(): boolean {
  try {
    readFileSync('/proc/self/environ');
    return true;
  } catch {
    return false;
  }
}

/** A new tree's mark: all marks have one length, so none is the start of another. */
export function newTreeMark(): string {
  return randomBytes(12).toString('hex');
}

/** The variable that marks a tree, for the environment of its first process. */
export function treeEnvironment(mark: string): Record<string, string> {
  return { [TREE_VARIABLE]: mark };
}

interface ProcessEntry {
  pid: number;
  parent: number;
}

/**
 * Live (not zombie) processes with their parents; a process that ends while it is read is left
 * out. Read asynchronously: on a busy machine a pass over /proc takes tens of milliseconds,
 * which must not stall the extension host.
 */
async function liveProcesses(): Promise<ProcessEntry[]> {
  const names = (await readdir('/proc')).filter((name) => name.charCodeAt(0) <= 57);
  const entries = await Promise.all(names.map(async (name): Promise<ProcessEntry | null> => {
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'latin1');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 2);
      return state === 'Z' ? null : { pid: Number(name), parent: Number(parent) };
    } catch {
      return null; // Gone since the directory was listed.
    }
  }));
  return entries.filter((entry) => entry !== null);
}

async function carriesMark(pid: number, needle: string): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/environ`, 'latin1')).includes(needle);
  } catch {
    // Gone, or not ours to read (another user's, or one that made itself undumpable).
    return false;
  }
}

/**
 * The live processes of a tree: every process that carries its mark (its first process too),
 * and every process whose parent chain reaches one of those. Empty where trees are not tracked.
 */
export async function treeMembers(mark: string): Promise<number[]> {
  if (!treesTracked) return [];
  const processes = await liveProcesses();
  const needle = `${TREE_VARIABLE}=${mark}`;
  const marked = await Promise.all(processes.map(({ pid }) => pid !== process.pid && carriesMark(pid, needle)));
  const members = new Set(processes.filter((_, at) => marked[at]).map(({ pid }) => pid));
  const childrenOf = new Map<number, number[]>();
  for (const { pid, parent } of processes) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), pid]);
  const pending = [...members];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    for (const child of childrenOf.get(pid) ?? []) {
      if (members.has(child)) continue;
      members.add(child);
      pending.push(child);
    }
  }
  return [...members];
}

export function signalProcesses(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
