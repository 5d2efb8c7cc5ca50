import { readdirSync, readFileSync, realpathSync } from 'node:fs';

/**
 * The live processes of a process group, from /proc (Linux): zombies do not count, since a
 * container's init may take its time to reap orphans.
 */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command name in parentheses: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z' && Number(pgrp) === pgid) members.push(Number(name));
  }
  return members;
}

/** How the scheduler treats a live process: its own nice, and its autogroup's (null where the kernel has none). */
export function schedulingOf(pid: number): { nice: number; groupNice: number | null; group: string | null } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command name: state(0) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice(16).
  const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  let autogroup: RegExpExecArray | null = null;
  try {
    autogroup = /^(\/autogroup-\d+) nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
  } catch {
    // No autogroups in this kernel.
  }
  return { nice, groupNice: autogroup ? Number(autogroup[2]) : null, group: autogroup?.[1] ?? null };
}

/** Live processes that lead a session of their own (as Tandem starts agents) and run in `cwd`. */
export function sessionLeadersIn(cwd: string): number[] {
  const leaders: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(session) === Number(name) && realpathSync(`/proc/${name}/cwd`) === cwd) leaders.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return leaders;
}
