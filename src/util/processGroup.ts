import { spawn, type ChildProcess } from 'node:child_process';

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

/** The first process of a group: its pid is the group's id. */
export interface GroupLeader {
  readonly pid: number | undefined;
  /** False once the leader has exited; jobs it left behind may still run. */
  readonly running: boolean;
  readonly exited: Promise<unknown>;
}

/**
 * Ends a whole process group: SIGTERM, SIGKILL once `graceMs` pass without the leader exiting,
 * and a last SIGKILL after it exits, because children that ignored SIGTERM (or jobs a finished
 * leader left running) must not outlive it.
 */
export async function stopGroup(leader: GroupLeader, graceMs: number): Promise<void> {
  const pid = leader.pid;
  if (leader.running) {
    signalGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
    timer.unref?.();
    try {
      await leader.exited;
    } finally {
      clearTimeout(timer);
    }
  }
  signalGroup(pid, 'SIGKILL');
}

/**
 * If the editor's extension host dies without disposing (killed, crashed), nothing would stop
 * a process group. A tiny shell watches the host and ends the group when the host is gone;
 * it also quits by itself once the group is empty, so finished commands leave no watcher.
 */
const REAPER_SCRIPT = 'while kill -0 "$1" 2>/dev/null && kill -0 -"$2" 2>/dev/null; do sleep 1; done; kill -0 "$1" 2>/dev/null && exit 0; kill -TERM -"$2" 2>/dev/null; sleep 2; kill -KILL -"$2" 2>/dev/null';

export function startReaper(groupPid: number | undefined): ChildProcess | null {
  if (groupPid === undefined || process.platform === 'win32') return null;
  try {
    const reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT, 'tandem-reaper', String(process.pid), String(groupPid)], { detached: true, stdio: 'ignore' });
    reaper.on('error', () => undefined);
    reaper.unref();
    return reaper;
  } catch {
    return null;
  }
}
