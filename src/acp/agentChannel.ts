import type { Readable, Writable } from 'node:stream';
import type { Disposable } from '../util/disposable';
import type { AgentPriority } from '../util/processPriority';

export interface AgentLaunch {
  command: string;
  args: string[];
  /** Added to the inherited environment (the editor's internal variables are not inherited). */
  env: Record<string, string>;
  cwd: string;
  /** How the agent shares the CPU with the editor (tandem.agentPriority); absent: as any program. */
  priority?: AgentPriority;
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

/**
 * What a connection needs from an agent: its two byte streams, how it ends, and its log.
 * A spawned process is one; an agent running in this process over two in-memory streams
 * (the SDK's own test pattern) or a recording played back are others.
 */
export interface AgentChannel extends Disposable {
  /** Absent when the agent is not an operating-system process. */
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly exited: Promise<AgentExit>;
  readonly running: boolean;
  /** What lowering its priority below the editor's did, for the log; absent or null when it was not lowered. */
  readonly priority?: Promise<string> | null;
  stderrTail(lines?: number): string[];
  onStderrLine(listener: (line: string) => void): Disposable;
  /** Ends the agent and everything it started. */
  stop(): Promise<AgentExit>;
}

/** How a session gets its agent: spawned by default, in memory where a caller provides one. */
export type AgentStarter = (launch: AgentLaunch) => AgentChannel;
