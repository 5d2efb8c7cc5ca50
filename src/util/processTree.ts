import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

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
  marked: boolean;
}

/**
 * Processes read between two turns of the event loop. Read synchronously: a /proc file is
 * in memory, so a read is a short system call, while an asynchronous one is a trip through
 * libuv's four threads. A pass of those (two reads per process, several trees ended at once)
 * queued thousands of trips: on a loaded machine a pass took 1-5 s, the first SIGTERM waited
 * for it, and every file the editor or an agent read or wrote meanwhile waited behind it.
 * A slice keeps each stall of the host well under a frame.
 */
const PROCESSES_PER_SLICE = 32;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A live (not zombie) process, its parent and whether it carries `needle`; null once it is gone. */
function readProcess(name: string, needle: string): ProcessEntry | null {
  const pid = Number(name);
  try {
    const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 2);
    return state === 'Z' ? null : { pid, parent: Number(parent), marked: pid !== process.pid && carriesMark(name, needle) };
  } catch {
    return null; // Gone since the directory was listed.
  }
}

function carriesMark(name: string, needle: string): boolean {
  try {
    return readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle);
  } catch {
    // Gone, or not ours to read (another user's, or one that made itself undumpable).
    return false;
  }
}

/** Live processes with their parents and marks, a slice per turn of the event loop; a process that ends while it is read is left out. */
async function liveProcesses(needle: string): Promise<ProcessEntry[]> {
  const names = readdirSync('/proc').filter((name) => name.charCodeAt(0) <= 57);
  const entries: ProcessEntry[] = [];
  for (let at = 0; at < names.length; at += PROCESSES_PER_SLICE) {
    if (at > 0) await nextTurn();
    for (const name of names.slice(at, at + PROCESSES_PER_SLICE)) {
      const entry = readProcess(name, needle);
      if (entry) entries.push(entry);
    }
  }
  return entries;
}

/**
 * The live processes of a tree: every process that carries its mark (its first process too),
 * and every process whose parent chain reaches one of those. Empty where trees are not tracked.
 */
export async function treeMembers(mark: string): Promise<number[]> {
  if (!treesTracked) return [];
  const processes = await liveProcesses(`${TREE_VARIABLE}=${mark}`);
  const members = new Set(processes.filter((entry) => entry.marked).map(({ pid }) => pid));
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
