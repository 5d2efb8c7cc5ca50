import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';

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
 * end a process group any more. One tiny shell outside it, started once per host (forking from
 * a large host pauses it), is told each group on its stdin: it ends a group that lives as long
 * as its leader when the leader is gone, and every group still alive when its stdin closes (the
 * host is gone, however it died): SIGTERM, then SIGKILL after a grace. A group found empty is
 * forgotten, so a later group that gets the same id is never signalled.
 */
const WATCHER_SCRIPT = [
  'exec 3<&0',
  '{ { cat <&3; echo gone; } & while echo tick; do sleep 1; done; } | {',
  // Groups that end with their leader, and groups that end with the host.
  'leaders= others=',
  'end_groups() {',
  '  for g in $1; do kill -TERM -"$g" 2>/dev/null; done',
  '  i=0',
  '  while [ "$i" -lt 10 ]; do',
  '    alive=; for g in $1; do kill -0 -"$g" 2>/dev/null && alive=1; done',
  '    [ -z "$alive" ] && return',
  '    sleep 0.2; i=$((i + 1))',
  '  done',
  '  for g in $1; do kill -KILL -"$g" 2>/dev/null; done',
  '}',
  'alive_of() { for g in $1; do kill -0 -"$g" 2>/dev/null && printf "%s " "$g"; done; }',
  'while read -r word group lifetime; do',
  '  case $word in',
  '    add) if [ "$lifetime" = leader ]; then leaders="$leaders $group"; else others="$others $group"; fi ;;',
  '    gone) end_groups "$leaders $others"; exit 0 ;;',
  '    tick)',
  '      others=$(alive_of "$others"); kept= ended=',
  '      for g in $(alive_of "$leaders"); do if kill -0 "$g" 2>/dev/null; then kept="$kept $g"; else ended="$ended $g"; fi; done',
  '      leaders=$kept',
  '      [ -z "$ended" ] || end_groups "$ended" ;;',
  '  esac',
  'done',
  '}',
].join('\n');

let watcher: ChildProcessByStdio<Writable, null, null> | null = null;

/** The host's one watcher, started on first use and again if something ended it. */
function watcherInput(): Writable {
  if (watcher) return watcher.stdin;
  const started = spawn('/bin/sh', ['-c', WATCHER_SCRIPT, 'tandem-reaper'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  started.on('error', () => undefined);
  started.once('exit', () => {
    if (watcher === started) watcher = null;
  });
  // A write after it died must not surface as an unhandled EPIPE; the next group starts another.
  started.stdin.on('error', () => undefined);
  // Neither the watcher nor its pipe keeps the host running.
  started.unref();
  (started.stdin as Writable & { unref?: () => void }).unref?.();
  watcher = started;
  return started.stdin;
}

/**
 * What a group lives as long as: `leader` (an agent: whatever it started dies with it) or
 * `host` (an agent's command: jobs it left running stay until the command is released or the
 * editor goes).
 */
export type GroupLifetime = 'leader' | 'host';

export function startReaper(groupPid: number | undefined, lifetime: GroupLifetime): void {
  if (groupPid === undefined || process.platform === 'win32') return;
  try {
    watcherInput().write(`add ${groupPid} ${lifetime}\n`);
  } catch {
    // Without a watcher the group is still ended by the host whenever the host lives to do it.
  }
}
