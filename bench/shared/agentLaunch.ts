/**
 * An agent as the benches start it: what the handshake, first-token, fs and host-ingest
 * measurements all take, so none of them imports another section for it.
 */
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { PreSessionStep } from '../../test/support/real-agents';

/** One agent start as both clients see it; a fresh one per run (real agents want a clean HOME). */
export interface AgentLaunch {
  definition: AgentDefinition;
  /** Workspace: the process cwd and the session/new cwd. */
  cwd: string;
  /** Requests the raw client sends between initialize and session/new (Tandem decides itself). */
  preSession: PreSessionStep[];
  /** Removes what the launch created; called after the agent has stopped. */
  dispose(): void;
}

/** An agent that can be launched again and again under one name. */
export interface HandshakeTarget {
  name: string;
  launch(): AgentLaunch;
}
