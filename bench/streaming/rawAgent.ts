/**
 * The streaming benches' baseline: a bare NDJSON client on the real Claude adapter. One process
 * serves every turn (each in a session of its own), as one Tandem agent process serves every tab
 * of the same agent, so neither side pays a spawn inside the timed part.
 */
import { performance } from 'node:perf_hooks';
import type { ScriptedModelServer } from '../../test/support/model-servers/script';
import { RawNdjsonClient } from '../../test/support/raw-ndjson-client';
import { claudeAgentSpec } from '../../test/support/real-agents';
import { processGroupCpuMs } from '../shared/processCpu';
import { CHUNK } from '../shared/streamedAnswer';

/** How fast the scripted model writes; none means as fast as the server can. */
export interface Pace {
  /** Figure key under `streaming`. */
  key: 'paced' | 'flood';
  label: string;
  deltasPerSecond?: number;
}

export interface RawTurn {
  /** session/prompt sent -> its response received (the last chunk came before it). */
  ms: number;
  /** session/prompt sent -> the first agent_message_chunk received. */
  firstTokenMs: number;
  /** agent_message_chunk notifications the client received in the turn. */
  chunks: number;
  /** The agent's process group (adapter + its helpers): CPU time over the turn / wall time. */
  agentCores: number | null;
  /** The same group's CPU time over the turn, in milliseconds. */
  agentCpuMs: number | null;
  /** The model server's last byte of the answer -> the response received: how far behind the model the agent finished. */
  afterStreamMs: number | null;
  /** session/prompt sent -> the adapter's request for the answer reached the model server. */
  modelRequestMs: number | null;
}

/** Milliseconds from `sentAt` (Date.now()) to the arrival of the model server's newest main request; null if none came. */
export function modelRequestAfter(model: ScriptedModelServer, sentAt: number): number | null {
  const request = [...model.requests].reverse().find((candidate) => candidate.role === 'main');
  return request === undefined || request.at < sentAt ? null : request.at - sentAt;
}

/** Milliseconds from the end of the model server's newest answer stream to `endedAt` (Date.now()); null if none ended. */
export function afterStream(model: ScriptedModelServer, endedAt: number): number | null {
  const streamEnd = [...model.requests].reverse().find((request) => request.role === 'main')?.streamEndedAt;
  return streamEnd === undefined ? null : endedAt - streamEnd;
}

/** Awaited after a turn's session is set up and before its prompt is sent: nothing of it is timed. */
export type BeforePrompt = () => Promise<void>;

export interface RawAgent {
  turn(text: string, pace: Pace, beforePrompt?: BeforePrompt): Promise<RawTurn>;
  /** CPU the agent's process group has used so far, in milliseconds; null where /proc is missing. */
  cpuMs(): number | null;
  close(): Promise<void>;
}

/** Starts the adapter on `model` and initializes it; `close` stops its whole process group. */
export async function openRawAgent(model: ScriptedModelServer): Promise<RawAgent> {
  const spec = claudeAgentSpec(model.url);
  let chunks = 0;
  let firstChunkAt = 0;
  const client = RawNdjsonClient.spawn(spec, {
    requestTimeoutMs: 120_000,
    onNotification: (method, params) => {
      if (method === 'session/update' && (params as { update?: { sessionUpdate?: string } }).update?.sessionUpdate === 'agent_message_chunk' && chunks++ === 0) firstChunkAt = performance.now();
    },
  });
  const close = async () => {
    await client.close();
    spec.dispose();
  };
  try {
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'bench', version: '1' } });
  } catch (error) {
    await close();
    throw error;
  }
  // The client spawns the agent detached, so the agent's pid is its process group.
  const group = client.child.pid ?? 0;
  return {
    close,
    cpuMs: () => processGroupCpuMs(group),
    async turn(text, pace, beforePrompt) {
      const session = await client.request<{ sessionId: string }>('session/new', { cwd: spec.cwd, mcpServers: [] });
      await beforePrompt?.();
      model.enqueue({ text, chunkSize: CHUNK, deltasPerSecond: pace.deltasPerSecond });
      chunks = 0;
      const cpuBefore = processGroupCpuMs(group);
      const started = performance.now();
      const sentAt = Date.now();
      await client.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Write the long answer' }] }, 300_000);
      const elapsed = performance.now() - started;
      const afterStreamMs = afterStream(model, Date.now());
      const cpuAfter = processGroupCpuMs(group);
      const agentCpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      return { ms: elapsed, firstTokenMs: firstChunkAt - started, chunks, agentCores: agentCpuMs === null ? null : agentCpuMs / elapsed, agentCpuMs, afterStreamMs, modelRequestMs: modelRequestAfter(model, sentAt) };
    },
  };
}
