import * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities, clientInfo } from '../../src/acp/clientCapabilities';
import { FrameStore } from '../../src/acp/frames';
import { SessionController } from '../../src/conversation/sessionController';
import { silentLogger } from '../../src/util/logger';
import { RawNdjsonClient } from '../../test/support/raw-ndjson-client';
import type { AgentLaunch } from '../shared/agentLaunch';
import { agentEnv, withTimeout, type Cleanup } from '../shared/resources';
import { folderScope } from '../../src/workspace/workspaceScope';

/** What a first-token run needs of an agent beyond its launch. */
export interface PromptScript {
  /** The prompt that makes the agent answer with text. */
  prompt: string;
  /** Queues the model's answer before each prompt (agents behind a scripted model server). */
  scriptAnswer(): void;
}

export interface FirstTokenResult {
  tandem: number[];
  raw: number[];
}

const TURN_TIMEOUT_MS = 90_000;

/** A Tandem session that is open, and a stopwatch from "Enter" (prompt()) to the first streamed agent text. */
async function tandemSession(launch: AgentLaunch & PromptScript, cleanup: Cleanup): Promise<{ once(): Promise<number>; close(): Promise<void> }> {
  const session = new SessionController(launch.definition, { workspace: () => folderScope(launch.cwd), trusted: true, frames: new FrameStore(), logger: silentLogger });
  const close = cleanup.add(`stop ${launch.definition.id} (Tandem, first token)`, async () => {
    await session.stopAgent();
    session.dispose();
  });
  if (!(await withTimeout(session.start(), TURN_TIMEOUT_MS, `Tandem start of ${launch.definition.label}`))) {
    await close();
    throw new Error(`Tandem could not start ${launch.definition.label}: ${session.connectionView.message ?? 'unknown reason'}`);
  }
  return {
    close,
    once: async () => {
      let first: number | null = null;
      const listener = session.thread.onDelta((delta) => {
        const text = (delta.type === 'entryAdded' && delta.entry.kind === 'agentMessage') || delta.type === 'textAppended';
        if (text && first === null) first = performance.now();
      });
      const started = performance.now();
      try {
        await withTimeout(session.prompt(launch.prompt), TURN_TIMEOUT_MS, `a Tandem turn of ${launch.definition.label}`);
      } finally {
        listener.dispose();
      }
      if (first === null) throw new Error(`${launch.definition.label} answered without text through Tandem`);
      return first - started;
    },
  };
}

/** The minimal NDJSON client with the same command, environment and requests: session/prompt to the first agent_message_chunk. */
async function rawSession(launch: AgentLaunch & PromptScript, cleanup: Cleanup): Promise<{ once(): Promise<number>; close(): Promise<void> }> {
  const { definition } = launch;
  let onChunk: (() => void) | null = null;
  const client = RawNdjsonClient.spawn({ command: definition.command, args: definition.args, env: agentEnv(definition), cwd: launch.cwd }, {
    requestTimeoutMs: TURN_TIMEOUT_MS,
    onNotification: (method, params) => {
      if (method === 'session/update' && (params as { update?: { sessionUpdate?: string } }).update?.sessionUpdate === 'agent_message_chunk') onChunk?.();
    },
  });
  const close = cleanup.add(`stop ${definition.id} (raw, first token)`, () => client.close());
  await client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: clientCapabilities({ fs: false, terminals: false }), clientInfo });
  for (const step of launch.preSession) await client.request(step.method, step.params);
  const { sessionId } = await client.request<{ sessionId: string }>('session/new', { cwd: launch.cwd, mcpServers: [] });
  return {
    close,
    once: async () => {
      let first: number | null = null;
      onChunk = () => {
        first ??= performance.now();
      };
      const started = performance.now();
      await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: launch.prompt }] });
      onChunk = null;
      if (first === null) throw new Error(`${definition.label} answered without text to the raw client`);
      return first - started;
    },
  };
}

/**
 * First token after Enter: both clients keep one session open and send `runs` prompts each,
 * alternating which goes first in a round; the model's answer is queued before every prompt.
 */
export async function measureFirstToken(launch: AgentLaunch & PromptScript, runs: number, cleanup: Cleanup, progress: (line: string) => void): Promise<FirstTokenResult> {
  const tandem = await tandemSession(launch, cleanup);
  const raw = await rawSession(launch, cleanup).catch(async (error: unknown) => {
    await tandem.close();
    throw error;
  });
  const result: FirstTokenResult = { tandem: [], raw: [] };
  try {
    for (let round = 0; round < runs; round++) {
      for (const client of round % 2 === 0 ? (['tandem', 'raw'] as const) : (['raw', 'tandem'] as const)) {
        launch.scriptAnswer();
        result[client].push(await (client === 'tandem' ? tandem : raw).once());
      }
      progress(`  first token ${launch.definition.label}: run ${round + 1}/${runs} tandem ${result.tandem.at(-1)?.toFixed(1)} ms raw ${result.raw.at(-1)?.toFixed(1)} ms`);
    }
  } finally {
    await tandem.close();
    await raw.close();
  }
  return result;
}
