/**
 * Spawn -> initialize -> session/new, timed for Tandem's SessionController and for a minimal
 * NDJSON client on the same agent launch.
 */
import * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities, clientInfo } from '../../src/acp/clientCapabilities';
import { FrameStore } from '../../src/acp/frames';
import { SessionController } from '../../src/conversation/sessionController';
import { silentLogger } from '../../src/util/logger';
import { RawNdjsonClient } from '../../test/support/raw-ndjson-client';
import type { AgentLaunch, HandshakeTarget } from '../shared/agentLaunch';
import { agentEnv, startClock, withTimeout, type Cleanup, type Timed } from '../shared/resources';
import { folderScope } from '../../src/workspace/workspaceScope';

/** Both clients' samples for one target, in the order they ran. */
export interface HandshakeResult {
  target: string;
  tandem: Timed[];
  raw: Timed[];
}

const HANDSHAKE_TIMEOUT_MS = 30_000;

/** Spawn -> initialize -> session/new through SessionController.start(); the agent is stopped after. */
async function tandemHandshake(launch: AgentLaunch, cleanup: Cleanup): Promise<Timed> {
  const clock = startClock();
  const session = new SessionController(launch.definition, { workspace: () => folderScope(launch.cwd), trusted: true, frames: new FrameStore(), logger: silentLogger });
  const stop = cleanup.add(`stop ${launch.definition.id} (Tandem)`, async () => {
    await session.stopAgent();
    session.dispose();
  });
  try {
    const ready = await withTimeout(session.start(), HANDSHAKE_TIMEOUT_MS, `Tandem handshake with ${launch.definition.label}`);
    const elapsed = clock();
    if (!ready) throw new Error(`Tandem could not start ${launch.definition.label}: ${session.connectionView.message ?? 'unknown reason'}`);
    return elapsed;
  } finally {
    await stop();
  }
}

/** The same three steps with the minimal NDJSON client, same command, environment and parameters. */
async function rawHandshake(launch: AgentLaunch, cleanup: Cleanup): Promise<Timed> {
  const { definition } = launch;
  const clock = startClock();
  const client = RawNdjsonClient.spawn(
    { command: definition.command, args: definition.args, env: agentEnv(definition), cwd: launch.cwd },
    { requestTimeoutMs: HANDSHAKE_TIMEOUT_MS },
  );
  const close = cleanup.add(`stop ${definition.id} (raw)`, () => client.close());
  try {
    await client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: clientCapabilities({ fs: false, terminals: false }), clientInfo });
    for (const step of launch.preSession) await client.request(step.method, step.params);
    await client.request('session/new', { cwd: launch.cwd, mcpServers: [] });
    return clock();
  } finally {
    await close();
  }
}

/**
 * Interleaved runs (even runs Tandem first, odd runs raw first) so that drift and caches hit
 * both clients alike; the first `warmup` rounds are not counted. Runs never overlap.
 */
export async function measureHandshake(target: HandshakeTarget, runs: number, warmup: number, cleanup: Cleanup, progress: (line: string) => void): Promise<HandshakeResult> {
  const tandemSamples: Timed[] = [];
  const rawSamples: Timed[] = [];
  for (let round = 0; round < warmup + runs; round++) {
    const order = round % 2 === 0 ? (['tandem', 'raw'] as const) : (['raw', 'tandem'] as const);
    for (const client of order) {
      const launch = target.launch();
      const dispose = cleanup.add(`dispose launch of ${target.name}`, () => launch.dispose());
      try {
        const timed = client === 'tandem' ? await tandemHandshake(launch, cleanup) : await rawHandshake(launch, cleanup);
        if (round >= warmup) (client === 'tandem' ? tandemSamples : rawSamples).push(timed);
      } finally {
        await dispose();
      }
    }
    const label = round < warmup ? 'warm-up' : `run ${round - warmup + 1}/${runs}`;
    progress(`  handshake ${target.name}: ${label} tandem ${fmt(tandemSamples.at(-1), round >= warmup)} raw ${fmt(rawSamples.at(-1), round >= warmup)}`);
  }
  return { target: target.name, tandem: tandemSamples, raw: rawSamples };
}

function fmt(sample: Timed | undefined, counted: boolean): string {
  return counted && sample !== undefined ? `${sample.ms.toFixed(1)} ms (cpu ${sample.cpuMs.toFixed(1)} ms)` : '-';
}
