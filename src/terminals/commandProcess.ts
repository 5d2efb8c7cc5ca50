import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import { startReaper, stopGroup } from '../util/processGroup';
import { newTreeMark, treeEnvironment } from '../util/processTree';
import { startedAt, type AgentPriority } from '../util/processPriority';
import { OutputBuffer } from './outputBuffer';

export interface CommandLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  outputByteLimit: number;
  /** How the command shares the CPU with the editor, as its agent does; absent: as any program. */
  priority?: AgentPriority;
}

export interface CommandExit {
  exitCode: number | null;
  signal: string | null;
}

const KILL_GRACE_MS = 1500;
/** After the program exits, output still in the pipes (or from jobs it left behind) is read this long. */
const DRAIN_MS = 200;

/**
 * One command an agent runs through `terminal/create`: its own process group and a tree mark
 * (so Stop reaches every child, one in a session of its own too), no stdin to wait on, stdout
 * and stderr interleaved into one byte-bounded buffer.
 */
export class CommandProcess implements Disposable {
  readonly output: OutputBuffer;
  readonly exited: Promise<CommandExit>;
  /** What lowering the command's priority did, for the log; null when it runs as any program. */
  readonly priority: Promise<string> | null;
  private readonly treeMark = newTreeMark();
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private readonly spawned: Promise<void>;
  private status: CommandExit | null = null;
  private readonly dataEmitter = new Emitter<Buffer>();
  /** Every chunk as read, before the buffer's limit applies. */
  readonly onData = this.dataEmitter.event;

  /** Resolves once the program runs; rejects when it cannot be started (not found, bad cwd). */
  static async start(launch: CommandLaunch): Promise<CommandProcess> {
    const command = new CommandProcess(launch);
    await command.spawned;
    return command;
  }

  private constructor(launch: CommandLaunch) {
    this.output = new OutputBuffer(launch.outputByteLimit);
    this.child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: { ...launch.env, ...treeEnvironment(this.treeMark) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    // Before the command starts programs of its own, which inherit its priority.
    this.priority = startedAt(launch.priority, this.child.pid);
    const take = (chunk: Buffer) => {
      this.output.append(chunk);
      this.dataEmitter.fire(chunk);
    };
    this.child.stdout.on('data', take);
    this.child.stderr.on('data', take);
    this.spawned = new Promise<void>((resolve, reject) => {
      this.child.once('spawn', () => {
        startReaper(this.child.pid, 'host', this.treeMark);
        resolve();
      });
      this.child.once('error', (error) => {
        if (this.child.pid === undefined) reject(error);
      });
    });
    this.exited = new Promise<CommandExit>((resolve) => {
      const finish = (status: CommandExit) => {
        if (this.status) return;
        this.status = status;
        resolve(status);
      };
      this.child.once('error', () => {
        if (this.child.pid === undefined) finish({ exitCode: null, signal: null });
      });
      this.child.once('exit', (exitCode, signal) => {
        // A background job that keeps the pipes open must not hold the exit back forever.
        const timer = setTimeout(() => finish({ exitCode, signal }), DRAIN_MS);
        this.child.once('close', () => {
          clearTimeout(timer);
          finish({ exitCode, signal });
        });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Null while the program runs. */
  get exitStatus(): CommandExit | null {
    return this.status;
  }

  /** Ends the whole process tree, jobs the program left running in its group or outside it included. */
  kill(): Promise<void> {
    return stopGroup({ pid: this.child.pid, exited: this.exited, treeMark: this.treeMark }, KILL_GRACE_MS);
  }

  dispose(): void {
    this.dataEmitter.dispose();
    void this.kill();
  }
}
