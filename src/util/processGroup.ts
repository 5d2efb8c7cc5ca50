import { spawn } from 'node:child_process';

/**
 * Processes Tandem starts (agents, agents' commands) run in a process group of their own
 * (`detached`), so one signal reaches everything they started, however deep.
 */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // No process groups on Windows: end the tree by parent links instead.
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** True while any process of the group exists; always false where there are no process groups. */
export function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined || process.platform === 'win32') return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it just cannot be signalled from here.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The first process of a group: its pid is the group's id. */
export interface GroupLeader {
  readonly pid: number | undefined;
  readonly exited: Promise<unknown>;
}

const POLL_MS = 100;

/**
 * Ends a whole process group, whether its leader still runs or has already died: SIGTERM to
 * every member now, and SIGKILL to whatever is left when `graceMs` have passed (the leader, a
 * child that ignored SIGTERM, a job a crashed leader left behind). Resolves once the leader
 * has exited; the last SIGKILL may come after that.
 */
export async function stopGroup(leader: GroupLeader, graceMs: number): Promise<void> {
  const pid = leader.pid;
  const deadline = Date.now() + graceMs;
  signalGroup(pid, 'SIGTERM');
  // Polled rather than one timer: a group that empties early is let go at once, so a later
  // group that happens to get the same id is never signalled.
  const watch = setInterval(() => {
    if (!groupAlive(pid)) return clearInterval(watch);
    if (Date.now() < deadline) return;
    signalGroup(pid, 'SIGKILL');
    clearInterval(watch);
  }, POLL_MS);
  watch.unref?.();
  await leader.exited;
}

/**
 * If the editor's extension host dies without disposing (killed, crashed), nothing in it can
 * end a process group any more. A tiny shell outside it watches the host (and, for a group
 * that ends with its leader, the leader) and ends the group when that is gone: SIGTERM, then
 * SIGKILL after a grace. It quits by itself once the group is empty, so nothing finished
 * leaves a watcher behind.
 */
const REAPER_SCRIPT = [
  'while kill -0 "$1" 2>/dev/null && kill -0 -"$2" 2>/dev/null && { [ "$3" = host ] || kill -0 "$2" 2>/dev/null; }; do sleep 1; done',
  'kill -0 -"$2" 2>/dev/null || exit 0',
  'kill -TERM -"$2" 2>/dev/null',
  'i=0; while [ "$i" -lt 10 ] && kill -0 -"$2" 2>/dev/null; do sleep 0.2; i=$((i + 1)); done',
  'kill -KILL -"$2" 2>/dev/null',
].join('\n');

/**
 * What a group lives as long as: `leader` (an agent: whatever it started dies with it) or
 * `host` (an agent's command: jobs it left running stay until the command is released or the
 * editor goes).
 */
export type GroupLifetime = 'leader' | 'host';

export function startReaper(groupPid: number | undefined, lifetime: GroupLifetime): void {
  if (groupPid === undefined || process.platform === 'win32') return;
  try {
    const reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT, 'tandem-reaper', String(process.pid), String(groupPid), lifetime], { detached: true, stdio: 'ignore' });
    reaper.on('error', () => undefined);
    reaper.unref();
  } catch {
    // Without a watcher the group is still ended by the host whenever the host lives to do it.
  }
}
