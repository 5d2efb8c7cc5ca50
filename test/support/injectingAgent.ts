/**
 * An agent whose output a test can write raw bytes into, between the agent's own frames: a
 * malformed, oversized or deeply nested line mid-turn, as a faulty or hostile agent would
 * send it. Everything else is the wrapped agent (in memory, or a spawned process).
 */
import { PassThrough, type Writable } from 'node:stream';
import type { AgentChannel, AgentStarter } from '../../src/acp/agentChannel';
import type { AgentExit } from '../../src/acp/agentChannel';
import { AgentProcess } from '../../src/acp/agentProcess';
import type { Disposable } from '../../src/util/disposable';
import { startScriptedAgentInMemory } from './inMemoryAgent';

export class InjectingAgent implements AgentChannel {
  /** Agent to client: the agent's own output with whatever was injected. */
  readonly stdout = new PassThrough();

  constructor(private readonly inner: AgentChannel) {
    // The agent writes each frame in one write, so an injected line lands between two frames.
    inner.stdout.pipe(this.stdout);
  }

  /** Writes `bytes` to the client as if the agent had; resolves once they are taken, or refused (the client closed the stream). */
  inject(bytes: string | Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.destroyed || this.stdout.writableEnded) resolve();
      else this.stdout.write(bytes, () => resolve());
    });
  }

  /** Ends the agent's output as if it closed its stdout, while the agent itself runs on. */
  endOutput(): void {
    this.inner.stdout.unpipe(this.stdout);
    this.stdout.end();
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }

  get stdin(): Writable {
    return this.inner.stdin;
  }

  get exited(): Promise<AgentExit> {
    return this.inner.exited;
  }

  get running(): boolean {
    return this.inner.running;
  }

  stderrTail(lines?: number): string[] {
    return this.inner.stderrTail(lines);
  }

  onStderrLine(listener: (line: string) => void): Disposable {
    return this.inner.onStderrLine(listener);
  }

  stop(): Promise<AgentExit> {
    return this.inner.stop();
  }

  dispose(): void {
    void this.stop();
  }
}

export interface InjectingStarter {
  start: AgentStarter;
  /** Every agent started so far, oldest first. */
  agents: InjectingAgent[];
  /** The agent started last. */
  latest(): InjectingAgent;
}

/**
 * Starts agents that can be injected into: in memory by default, or as spawned processes.
 * `onStart` sees each agent before the client has sent it anything.
 */
export function injectingStarter(kind: 'memory' | 'process' = 'memory', onStart?: (agent: InjectingAgent) => void): InjectingStarter {
  const agents: InjectingAgent[] = [];
  const inner: AgentStarter = kind === 'memory' ? startScriptedAgentInMemory : (launch) => new AgentProcess(launch);
  return {
    agents,
    start: (launch) => {
      const agent = new InjectingAgent(inner(launch));
      agents.push(agent);
      onStart?.(agent);
      return agent;
    },
    latest: () => {
      const agent = agents.at(-1);
      if (!agent) throw new Error('No agent was started yet.');
      return agent;
    },
  };
}
