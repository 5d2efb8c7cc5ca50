/**
 * CPU time of a whole process group from /proc (Linux): an agent such as claude-agent-acp runs
 * helpers in its group, and its cost is theirs together. Processes that already exited are not
 * counted, so read it while the group is alive (before the client closes the agent). Also finds
 * the processes of a code-server the benches started: its group, its extension host, and the
 * agent that extension host started in a group of its own.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

/** The kernel's clock tick (USER_HZ), asked once: /proc/<pid>/stat counts CPU time in it. */
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticksPerSecond;
}

/**
 * The fields of /proc/<pid>/stat after the command name, null once the process is gone. The name
 * (field 2) may hold spaces and parentheses: the fields after it start at the last ')'. From there:
 * state(0) ppid(1) pgrp(2) ... utime(11) stime(12).
 */
function statFields(pid: string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime of one process if it belongs to `group` (any group when null), else 0 (gone or another group). */
function processTicks(pid: string, group: number | null): number {
  const fields = statFields(pid);
  if (!fields || (group !== null && Number(fields[2]) !== group)) return 0;
  return Number(fields[11]) + Number(fields[12]);
}

function livePids(): string[] | null {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
}

/** The live processes whose command line has every one of `args`; null where /proc is missing. */
function processesWith(args: readonly string[]): string[] | null {
  const pids = livePids();
  if (!pids) return null;
  return pids.filter((pid) => {
    try {
      // Chromium rewrites its children's titles: their arguments come space-separated, not NUL-separated.
      const argv = ` ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')} `;
      return args.every((arg) => argv.includes(` ${arg} `));
    } catch {
      return false;
    }
  });
}

/**
 * Milliseconds of CPU used so far by the live processes whose command line has every one of
 * `args` (e.g. a browser profile's --user-data-dir and --type=renderer); null where /proc is missing.
 */
export function processesCpuMs(args: readonly string[]): number | null {
  const matching = processesWith(args);
  return matching && (matching.reduce((sum, pid) => sum + processTicks(pid, null), 0) * 1000) / clockTicks();
}

/** Milliseconds of CPU used so far by the Chromium processes of one type (renderer, gpu-process) of the browser profile in `userDataDir`. */
export function browserCpuMs(userDataDir: string, type: string): number | null {
  return processesCpuMs([`--user-data-dir=${userDataDir}`, `--type=${type}`]);
}

/** Milliseconds of CPU the live processes of `group` have used so far; null where /proc is missing. */
export function processGroupCpuMs(group: number): number | null {
  const pids = livePids();
  if (!pids) return null;
  const ticks = pids.reduce((sum, pid) => sum + processTicks(pid, group), 0);
  return (ticks * 1000) / clockTicks();
}

/** A process's arguments, [] once it is gone. */
export function processArgs(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** A process's parent and process group, undefined once it is gone. */
function processIds(pid: string): { parent: string; group: string } | undefined {
  const fields = statFields(pid);
  return fields ? { parent: fields[1] ?? '', group: fields[2] ?? '' } : undefined;
}

export interface CodeServerProcesses {
  /** The server's process group: the server, its extension host and pty host (not agents, which get groups of their own). */
  group: number;
  extensionHost: number;
}

/** The processes of the code-server started with `userDataDir` (its command line has it). */
export function codeServerProcesses(userDataDir: string): CodeServerProcesses {
  const pids = livePids() ?? [];
  const server = pids.find((pid) => processArgs(pid).includes(userDataDir));
  const group = server === undefined ? undefined : processIds(server)?.group;
  const hosts = pids.filter((pid) => pid !== server && processIds(pid)?.group === group && processArgs(pid).some((arg) => /extensionHost/i.test(arg)));
  if (group === undefined || hosts.length !== 1) {
    const listed = pids.filter((pid) => processIds(pid)?.group === group).map((pid) => `${pid}: ${processArgs(pid).join(' ')}`);
    throw new Error(`expected one extension host in code-server's group ${group ?? '(no server found)'}, found ${hosts.length}:\n${listed.join('\n')}`);
  }
  return { group: Number(group), extensionHost: Number(hosts[0]) };
}

/** The process group of the child of `parent` whose arguments hold `argument` (an agent the extension host spawned detached), else null. */
export function childGroup(parent: number, argument: string): number | null {
  const child = (livePids() ?? []).find((pid) => processIds(pid)?.parent === String(parent) && processArgs(pid).includes(argument));
  const group = child === undefined ? undefined : processIds(child)?.group;
  return group === undefined ? null : Number(group);
}

/** CPU readings added up; null when any of them could not be read. */
export function sumOfCpu(...parts: (number | null)[]): number | null {
  return parts.some((part) => part === null) ? null : parts.reduce<number>((sum, part) => sum + (part ?? 0), 0);
}

export interface IdleWait {
  /** Milliseconds waited before the processes went quiet, or the limit when they did not. */
  waitedMs: number;
  /** False when they were still busy at the limit (or /proc could not be read). */
  idle: boolean;
}

/**
 * Waits until the processes `cpuMs` reads (CPU used so far, summed) use at most `busyMs` of CPU in
 * a `windowMs` window, at most `limitMs`. An agent goes on working after it answered (Claude Code
 * names the session and writes its transcript), and a turn timed meanwhile shares the cores with it.
 */
export async function untilIdle(cpuMs: () => number | null, { windowMs = 250, busyMs = 10, limitMs = 15_000 } = {}): Promise<IdleWait> {
  const started = Date.now();
  let before = cpuMs();
  while (before !== null) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = cpuMs();
    if (after === null) break;
    if (after - before <= busyMs) return { waitedMs: Date.now() - started, idle: true };
    if (Date.now() - started >= limitMs) return { waitedMs: Date.now() - started, idle: false };
    before = after;
  }
  return { waitedMs: Date.now() - started, idle: false };
}
