import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Disposable } from '../util/disposable';
import { LineLog } from '../util/lineLog';
import type { AgentChannel } from './agentChannel';
import { startReaper, stopGroup } from '../util/processGroup';

export interface AgentLaunch {
  command: string;
  args: string[];
  /** Added to the inherited environment. */
  env: Record<string, string>;
  cwd: string;
}

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when Tandem asked the process to stop. */
  requested: boolean;
  /** Set when the process could not be started at all. */
  spawnError: string | null;
  stderrTail: string[];
}

const KILL_GRACE_MS = 1500;

/**
 * One agent program. It runs in a process group of its own so that stopping it also stops
 * whatever it started; stderr (the agent's free-form log) is kept in a bounded tail.
 */
export class AgentProcess implements AgentChannel {
  readonly exited: Promise<AgentExit>;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly stderr = new LineLog();
  private stopRequested = false;
  private hasExited = false;
  private readonly reaper: ChildProcess | null;

  constructor(launch: AgentLaunch) {
    this.child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: { ...process.env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    this.reaper = startReaper(this.child.pid);
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
        this.reaper?.kill('SIGKILL');
        this.stderr.end();
        resolveExit({ code, signal, requested: this.stopRequested, spawnError, stderrTail: this.stderrTail() });
      };
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

  /** Stops the agent and everything it started: SIGTERM to the group, SIGKILL after a grace period. */
  async stop(): Promise<AgentExit> {
    this.stopRequested = true;
    if (!this.hasExited) this.child.stdin.end();
    await stopGroup(this, KILL_GRACE_MS);
    return this.exited;
  }

  dispose(): void {
    void this.stop();
  }
}
