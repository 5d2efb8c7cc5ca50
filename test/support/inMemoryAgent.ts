/**
 * The scripted agent as an AgentChannel inside the test process: two in-memory byte streams
 * with the agent served on their far end, so a session talks real ACP without spawning node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentChannel, AgentStarter } from '../../src/acp/agentChannel';
import type { AgentExit, AgentLaunch } from '../../src/acp/agentChannel';
import type { Disposable } from '../../src/util/disposable';
import { LineLog } from '../../src/util/lineLog';
import { serveScriptedAgent } from './scriptedAgentServer';


export class InMemoryScriptedAgent implements AgentChannel {
  readonly pid = undefined;
  /** Client to agent. */
  readonly stdin = new PassThrough();
  /** Agent to client. */
  readonly stdout = new PassThrough();
  readonly exited: Promise<AgentExit>;
  private resolveExit: (exit: AgentExit) => void = () => undefined;
  private readonly stderr = new LineLog();
  private readonly children = new Set<ChildProcess>();
  private readonly connection: acp.AgentConnection | null;
  private stopRequested = false;
  private hasExited = false;

  /** Reads the agent's options from the launch's environment over this one's, as the spawned agent would see them. */
  constructor(launch: AgentLaunch) {
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    // A write after the agent ended must surface as its exit, not as a stream error.
    this.stdin.on('error', () => undefined);
    this.connection = serveScriptedAgent({ input: this.stdin, output: this.stdout }, {
      env: { ...process.env, ...launch.env },
      cwd: launch.cwd,
      invocation: { command: launch.command, args: launch.args },
      host: {
        log: (line) => this.stderr.push(line),
        exit: (code) => this.finish(code),
        spawnChild: (command, args) => this.spawnChild(command, args),
      },
    });
  }

  get running(): boolean {
    return !this.hasExited;
  }

  stderrTail(lines = 20): string[] {
    return this.stderr.tail(lines);
  }

  onStderrLine(listener: (line: string) => void): Disposable {
    return this.stderr.onLine(listener);
  }

  stop(): Promise<AgentExit> {
    this.stopRequested = true;
    this.finish(null);
    return this.exited;
  }

  dispose(): void {
    void this.stop();
  }

  private finish(code: number | null): void {
    if (this.hasExited) return;
    this.hasExited = true;
    // Like stopping a process group: nothing the agent started outlives it.
    for (const child of this.children) child.kill('SIGKILL');
    this.connection?.close();
    this.resolveExit({ code, signal: null, requested: this.stopRequested, spawnError: null, stderrTail: this.stderrTail() });
    // A process's pipes close after its exit is known; the client sees the same order.
    setImmediate(() => {
      this.stdout.end();
      this.stdin.destroy();
    });
  }

  private spawnChild(command: string, args: string[]): number | undefined {
    const child = spawn(command, args, { stdio: 'ignore' });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child.pid;
  }

}

/** Starts every launch as an in-memory scripted agent (whatever its command names). */
export const startScriptedAgentInMemory: AgentStarter = (launch) => new InMemoryScriptedAgent(launch);
