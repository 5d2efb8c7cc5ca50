import type * as acp from '@agentclientprotocol/sdk';

/** One behaviour of the scripted agent, chosen by the first word of the prompt. */
export type Scenario = (client: acp.AgentContext, sessionId: string, rest: string, signal: AbortSignal, session: ScriptedSession) => Promise<acp.StopReason>;

/** What the scripted agent knows about a session and the client it talks to. */
export interface ScriptedSession {
  cwd: string;
  clientCapabilities: acp.ClientCapabilities;
}

/** The environment the scripted agent reads its SCRIPTED_* options from (a process's own, or a launch's in memory). */
export type ScriptedAgentEnv = Readonly<Record<string, string | undefined>>;
