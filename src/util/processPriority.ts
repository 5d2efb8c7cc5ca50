import { readFileSync, writeFileSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How the programs Tandem starts for an agent (the agent itself, the commands it runs) share the
 * CPU with the editor: `belowEditor` gives them the platform's "below normal" priority, so the
 * editor is served first when both want the CPU and the agent gets all the rest; `normal` leaves
 * them as any program the user starts.
 */
export type AgentPriority = 'belowEditor' | 'normal';

export const AGENT_PRIORITIES: readonly AgentPriority[] = ['belowEditor', 'normal'];

/** The platform's "below normal": nice 10 on Linux and macOS, BELOW_NORMAL_PRIORITY_CLASS on Windows. */
const BELOW_NORMAL = constants.priority.PRIORITY_BELOW_NORMAL;

/** Linux lets a user change a scheduler group's nice at most once per 100 ms, machine-wide. */
const AUTOGROUP_RETRY_MS = 110;

/** A process just started at `priority`: lowered (resolving with what was done, for the log), or null when it runs as any program. */
export function startedAt(priority: AgentPriority | undefined, pid: number | undefined): Promise<string> | null {
  return priority === 'belowEditor' && pid !== undefined ? runBelowEditor(pid) : null;
}

/**
 * Lowers the priority of a process Tandem just started in a session of its own (an agent, a
 * command), before it starts any of its own, which inherit it. On Linux with the scheduler's
 * autogroups (most desktop distributions), a session is a group that gets as much CPU as the whole
 * editor, whatever the nice of the processes in it; there the group's own nice is lowered as well.
 * Resolves with what was done, for the log; what the platform refuses stays as it was.
 */
export async function runBelowEditor(pid: number): Promise<string> {
  const done: string[] = [];
  try {
    setPriority(pid, BELOW_NORMAL);
    done.push(`priority ${getPriority(pid)}`);
  } catch (error) {
    done.push(`priority unchanged (${(error as Error).message})`);
  }
  if (process.platform === 'linux') {
    const group = await lowerSessionGroup(pid);
    if (group) done.push(group);
  }
  return done.join(', ');
}

/**
 * The nice of the scheduler group of `pid`'s session, lowered; only when `pid` leads a session of
 * its own (the editor's group must never be the one lowered). Null where there are no autogroups.
 */
async function lowerSessionGroup(pid: number): Promise<string | null> {
  if (sessionOf(pid) !== pid) return 'scheduler group unchanged (not a session of its own)';
  const file = `/proc/${pid}/autogroup`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, String(BELOW_NORMAL));
      return readFileSync(file, 'utf8').trim().replace(/^\/autogroup-\d+ /, 'scheduler group ');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' && attempt === 0) {
        await sleep(AUTOGROUP_RETRY_MS);
        continue;
      }
      // No such file: autogroups are off or not in this kernel, and the process's own nice is what counts.
      return code === 'ENOENT' ? null : `scheduler group unchanged (${code ?? (error as Error).message})`;
    }
  }
}

/** The session id of a live process (field 6 of /proc/<pid>/stat), or null. */
function sessionOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name, which may hold spaces and parentheses: state ppid pgrp session ...
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return null;
  }
}
