/**
 * CPU time of a whole process group from /proc (Linux): an agent such as claude-agent-acp runs
 * helpers in its group, and its cost is theirs together. Processes that already exited are not
 * counted, so read it while the group is alive (before the client closes the agent).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

/** The kernel's clock tick (USER_HZ), asked once: /proc/<pid>/stat counts CPU time in it. */
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticksPerSecond;
}

/** utime + stime of one process if it belongs to `group` (any group when null), else 0 (gone or another group). */
function processTicks(pid: string, group: number | null): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state(0) ppid(1) pgrp(2) ... utime(11) stime(12).
  if (group !== null && Number(fields[2]) !== group) return 0;
  return Number(fields[11]) + Number(fields[12]);
}

function livePids(): string[] | null {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
}

/**
 * Milliseconds of CPU used so far by the live processes whose command line has every one of
 * `args` (e.g. a browser profile's --user-data-dir and --type=renderer); null where /proc is missing.
 */
export function processesCpuMs(args: readonly string[]): number | null {
  const pids = livePids();
  if (!pids) return null;
  const matching = pids.filter((pid) => {
    try {
      // Chromium rewrites its children's titles: their arguments come space-separated, not NUL-separated.
      const argv = ` ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')} `;
      return args.every((arg) => argv.includes(` ${arg} `));
    } catch {
      return false;
    }
  });
  return (matching.reduce((sum, pid) => sum + processTicks(pid, null), 0) * 1000) / clockTicks();
}

/** Milliseconds of CPU the live processes of `group` have used so far; null where /proc is missing. */
export function processGroupCpuMs(group: number): number | null {
  const pids = livePids();
  if (!pids) return null;
  const ticks = pids.reduce((sum, pid) => sum + processTicks(pid, group), 0);
  return (ticks * 1000) / clockTicks();
}
