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

/** utime + stime of one process if it belongs to `group`, else 0 (gone or another group). */
function groupTicks(pid: string, group: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state(0) ppid(1) pgrp(2) ... utime(11) stime(12).
  if (Number(fields[2]) !== group) return 0;
  return Number(fields[11]) + Number(fields[12]);
}

/** Milliseconds of CPU the live processes of `group` have used so far; null where /proc is missing. */
export function processGroupCpuMs(group: number): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const ticks = pids.reduce((sum, pid) => sum + groupTicks(pid, group), 0);
  return (ticks * 1000) / clockTicks();
}
