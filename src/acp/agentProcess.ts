import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { BoundedLog } from '../util/ringBuffer';
import type { Disposable } from '../util/disposable';
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

const STDERR_LINES = 200;
const STDERR_BYTES = 256 * 1024;
const KILL_GRACE_MS = 1500;

/**
 * One agent program. It runs in a process group of its own so that stopping it also stops
 * whatever it started; stderr (the agent's free-form log) is kept in a bounded tail.
 */
export class AgentProcess implements AgentChannel {
  readonly exited: Promise<AgentExit>;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly stderr = new BoundedLog<string>(STDERR_LINES, STDERR_BYTES, (line) => line.length);
  private partialStderr = '';
  private stopRequested = false;
  private hasExited = false;
  private readonly stderrListeners = new Set<(line: string) => void>();
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
    this.child.stderr.on('data', (chunk: string) => this.takeStderr(chunk));
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
        if (this.partialStderr) this.pushStderrLine(this.partialStderr);
        this.partialStderr = '';
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

  stderrTail(lines = 20): string[] {
    return this.stderr.toArray().slice(-lines);
  }

  onStderrLine(listener: (line: string) => void): Disposable {
    this.stderrListeners.add(listener);
    return { dispose: () => this.stderrListeners.delete(listener) };
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

  private takeStderr(chunk: string): void {
    const text = this.partialStderr + chunk;
    const lines = text.split('\n');
    this.partialStderr = lines.pop() ?? '';
    for (const line of lines) this.pushStderrLine(line);
    // An agent that never prints a newline must not grow this without bound.
    if (this.partialStderr.length > 16 * 1024) {
      this.pushStderrLine(this.partialStderr);
      this.partialStderr = '';
    }
  }

  private pushStderrLine(rawLine: string): void {
    const line = rawLine.replace(/\r$/, '');
    this.stderr.push(line);
    for (const listener of this.stderrListeners) listener(line);
  }
}

/** One clear sentence about how an agent process ended. */
export function describeExit(agentName: string, exit: AgentExit): string {
  if (exit.spawnError) return `${agentName} could not be started: ${exit.spawnError}.`;
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
  const lastLines = exit.stderrTail.filter((line) => line.trim()).slice(-3);
  const tail = lastLines.length > 0 ? ` Last output: ${lastLines.join(' / ')}` : '';
  return `${agentName} ${how}.${tail}`;
}
