import { readdirSync, readFileSync } from 'node:fs';

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
