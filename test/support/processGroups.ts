import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import type { TestContext } from 'node:test';

/**
 * The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses):
 * state(0) ppid(1) pgrp(2) session(3) ... nice(16); null once the process is gone.
 */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The live (not zombie: a container's init may take its time to reap orphans) processes whose stat fields pass `test`, from /proc (Linux). */
function liveProcesses(test: (fields: string[], pid: number) => boolean): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    if (fields && fields[0] !== 'Z' && test(fields, Number(name))) found.push(Number(name));
  }
  return found;
}

/** The live processes of a process group. */
export function groupMembers(pgid: number): number[] {
  return liveProcesses((fields) => Number(fields[2]) === pgid);
}

/**
 * The live processes started with `name=value` in their environment: every descendant of a
 * program started with it that kept its environment, in whatever group or session it went to,
 * and after its parent died.
 */
export function processesCarrying(name: string, value: string): number[] {
  const entry = `\0${name}=${value}\0`;
  return liveProcesses((_fields, pid) => {
    try {
      return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(entry);
    } catch {
      return false; // Gone, or not ours to read.
    }
  });
}

/** How the scheduler treats a live process: its own nice, and its autogroup's (null where the kernel has none). */
export function schedulingOf(pid: number): { nice: number; groupNice: number | null; group: string | null } {
  const fields = statFields(pid);
  if (!fields) throw new Error(`process ${pid} is gone`);
  let autogroup: RegExpExecArray | null = null;
  try {
    autogroup = /^(\/autogroup-\d+) nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
  } catch {
    // No autogroups in this kernel.
  }
  return { nice: Number(fields[16]), groupNice: autogroup ? Number(autogroup[2]) : null, group: autogroup?.[1] ?? null };
}

/** Why scheduler groups mean nothing on this machine (no autogroups in the kernel, or turned off), or null when they count. */
function autogroupsOff(): string | null {
  let enabled: string;
  try {
    enabled = readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim();
  } catch {
    return 'not checked: this kernel has no scheduler autogroups';
  }
  return enabled === '0' ? 'not checked: scheduler autogroups are off (kernel.sched_autogroup_enabled is 0)' : null;
}

/**
 * `check` of scheduler groups as a subtest of `t`, reported as skipped ("not checked: …") where
 * the kernel has no autogroups or has them off: there a group and its nice mean nothing, and a
 * check that passed there would claim what it never saw.
 */
export async function schedulerGroupCheck(t: TestContext, name: string, check: () => void): Promise<void> {
  await t.test(name, (sub) => {
    const off = autogroupsOff();
    if (off) sub.skip(off);
    else check();
  });
}

/** Live processes that lead a session of their own (as Tandem starts agents) and run in `cwd`. */
export function sessionLeadersIn(cwd: string): number[] {
  return liveProcesses((fields, pid) => {
    if (Number(fields[3]) !== pid) return false;
    try {
      return realpathSync(`/proc/${pid}/cwd`) === cwd;
    } catch {
      return false; // Gone, or not ours to read.
    }
  });
}
