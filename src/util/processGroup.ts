import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';
import { signalProcesses, TREE_VARIABLE, treeMembers, treesTracked } from './processTree';

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
  /** The mark of the leader's process tree (see processTree.ts), to reach what left the group. */
  readonly treeMark?: string;
}

const POLL_MS = 100;
/**
 * SIGKILL is repeated for what the tree forked while it was being ended, this many polls at
 * most: a zombie counts as a member until init reaps it, which some containers never do.
 */
const KILL_ROUNDS = 5;

/**
 * Signals the group and every process of its tree; true while any of them was there. Signal 0
 * only looks. The tree is read first: a child that dropped the mark is found by its parent
 * chain only while its parent lives.
 */
async function signalAll(leader: GroupLeader, signal: NodeJS.Signals | 0): Promise<boolean> {
  // A pass that could not read /proc (out of file descriptors) still signals the group, and counts as one that found some.
  const tree = leader.treeMark === undefined ? [] : await treeMembers(leader.treeMark).catch(() => null);
  if (signal !== 0) {
    signalGroup(leader.pid, signal);
    signalProcesses(tree ?? [], signal);
  }
  return groupAlive(leader.pid) || tree === null || tree.length > 0;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/**
 * SIGTERM to the group and its tree now, SIGKILL to whatever is left at `deadline`. Polled
 * rather than one timer: a group that empties early is let go at once, so a later group that
 * happens to get the same id is never signalled; each poll also finds what the tree started
 * since the last one.
 */
async function endGroupAndTree(leader: GroupLeader, deadline: number): Promise<void> {
  let alive = await signalAll(leader, 'SIGTERM');
  for (let killRounds = 0; alive && killRounds < KILL_ROUNDS;) {
    await pause(POLL_MS);
    const killing = Date.now() >= deadline;
    if (killing) killRounds++;
    alive = await signalAll(leader, killing ? 'SIGKILL' : 0);
  }
}

/**
 * Ends a whole process group and the rest of its leader's tree, whether the leader still runs
 * or has already died: SIGTERM to every member now, and SIGKILL to whatever is left when
 * `graceMs` have passed (the leader, a child that ignored SIGTERM, a job a crashed leader left
 * behind, a command in a session of its own). Resolves once the leader has exited; the last
 * SIGKILL may come after that.
 */
export async function stopGroup(leader: GroupLeader, graceMs: number): Promise<void> {
  void endGroupAndTree(leader, Date.now() + graceMs);
  await leader.exited;
}

/**
 * If the editor's extension host dies without disposing (killed, crashed), nothing in it can
 * end a process group any more. One tiny shell outside it, started once per host (forking from
 * a large host pauses it), is told each group (and its tree's mark, where trees are tracked) on
 * its stdin: it ends a group that lives as long as its leader when the leader is gone, and
 * every group still alive when its stdin closes (the host is gone, however it died): SIGTERM,
 * then SIGKILL after a grace, to the group and to every process that carries the mark. A group
 * found empty is forgotten, so a later group that gets the same id is never signalled.
 */
const WATCHER_SCRIPT = [
  'exec 3<&0',
  '{ { cat <&3; echo gone; } & while echo tick; do sleep 1; done; } | {',
  // Entries are group:mark (the mark may be empty): groups that end with their leader, and groups that end with the host.
  'leaders= others=',
  `marked() { [ -n "$1" ] && grep -l -F "${TREE_VARIABLE}=$1" /proc/[0-9]*/environ 2>/dev/null | sed "s|/proc/||; s|/environ||"; }`,
  'signal_entry() { kill -"$1" -"${2%%:*}" 2>/dev/null; for p in $(marked "${2#*:}"); do kill -"$1" "$p" 2>/dev/null; done; }',
  'entry_alive() { kill -0 -"${1%%:*}" 2>/dev/null || [ -n "$(marked "${1#*:}")" ]; }',
  'end_groups() {',
  '  for e in $1; do signal_entry TERM "$e"; done',
  '  i=0',
  '  while [ "$i" -lt 10 ]; do',
  '    alive=; for e in $1; do entry_alive "$e" && alive=1; done',
  '    [ -z "$alive" ] && return',
  '    sleep 0.2; i=$((i + 1))',
  '  done',
  '  for e in $1; do signal_entry KILL "$e"; done',
  '}',
  'while read -r word entry lifetime; do',
  '  case $word in',
  '    add) if [ "$lifetime" = leader ]; then leaders="$leaders $entry"; else others="$others $entry"; fi ;;',
  '    gone) end_groups "$leaders $others"; exit 0 ;;',
  '    tick)',
  '      kept=; for e in $others; do kill -0 -"${e%%:*}" 2>/dev/null && kept="$kept $e"; done; others=$kept',
  // A leader gone with its group empty may still have left processes in sessions of their own.
  '      kept= ended=',
  '      for e in $leaders; do if kill -0 "${e%%:*}" 2>/dev/null; then kept="$kept $e"; else ended="$ended $e"; fi; done',
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

export function startReaper(groupPid: number | undefined, lifetime: GroupLifetime, treeMark?: string): void {
  if (groupPid === undefined || process.platform === 'win32') return;
  try {
    watcherInput().write(`add ${groupPid}:${treesTracked ? treeMark ?? '' : ''} ${lifetime}\n`);
  } catch {
    // Without a watcher the group is still ended by the host whenever the host lives to do it.
  }
}
