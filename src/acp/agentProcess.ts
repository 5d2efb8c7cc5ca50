import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Disposable } from '../util/disposable';
import { LineLog } from '../util/lineLog';
import type { AgentChannel, AgentExit, AgentLaunch } from './agentChannel';
import { inheritedEnvironment } from '../util/inheritedEnvironment';
import { startReaper, stopGroup } from '../util/processGroup';
import { newTreeMark, treeEnvironment } from '../util/processTree';
import { startedAt } from '../util/processPriority';

const KILL_GRACE_MS = 1500;

/**
 * One agent program. It runs in a process group of its own, and its whole process tree ends
 * with it: stopping it, or its exit for any reason (a crash, a kill), also ends whatever it
 * started, in its group or not (a command Claude Code runs in a session of its own).
 * stderr (the agent's free-form log) is kept in a bounded tail.
 */
export class AgentProcess implements AgentChannel {
  readonly exited: Promise<AgentExit>;
  /** What lowering the agent's priority did, for the log; null when it runs as any program. */
  readonly priority: Promise<string> | null;
  /** Carried by every process the agent starts, however far it goes from its group (see processTree.ts). */
  readonly treeMark = newTreeMark();
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly stderr = new LineLog();
  private stopRequested = false;
  private hasExited = false;
  /** The group's end, begun by a stop or by the agent's own exit. */
  private ending: Promise<void> | null = null;

  constructor(launch: AgentLaunch) {
    this.child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: { ...inheritedEnvironment(process.env), ...launch.env, ...treeEnvironment(this.treeMark) },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    // Before the agent starts programs of its own, which inherit its priority.
    this.priority = startedAt(launch.priority, this.child.pid);
    startReaper(this.child.pid, 'leader', this.treeMark);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.stderr.write(chunk));
    // A write after the agent died must surface as its exit, not as an unhandled EPIPE.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise<AgentExit>((resolveExit) => {
      let spawnError: string | null = null;
      this.child.once('error', (error) => {
        spawnError = error.message;
        // 'close' does not always follow a failed spawn.
        if (this.child.pid === undefined) finish(null, null);
      });
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.hasExited) return;
        this.hasExited = true;
        this.stderr.end();
        resolveExit({ code, signal, requested: this.stopRequested, spawnError, stderrTail: this.stderrTail() });
      };
      // Children of a dead agent (the program an adapter drives, a command it ran) would run on,
      // reparented to init; they may also hold its pipes open, which holds 'close' back.
      // Those that left its group are found by the mark they inherited.
      this.child.once('exit', () => void this.endGroup());
      this.child.once('close', finish);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdin(): Writable {
    return this.child.stdin;
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  get running(): boolean {
    return !this.hasExited;
  }

  stderrTail(lines?: number): string[] {
    return this.stderr.tail(lines);
  }

  onStderrLine(listener: (line: string) => void): Disposable {
    return this.stderr.onLine(listener);
  }

  /** Stops the agent and everything it started: SIGTERM to its tree, SIGKILL after a grace period. */
  async stop(): Promise<AgentExit> {
    this.stopRequested = true;
    if (!this.hasExited) this.child.stdin.end();
    await this.endGroup();
    return this.exited;
  }

  dispose(): void {
    void this.stop();
  }

  private endGroup(): Promise<void> {
    this.ending ??= stopGroup(this, KILL_GRACE_MS);
    return this.ending;
  }
}
