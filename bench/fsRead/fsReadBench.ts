// fs/read_text_file round trip for an open 5 MB document: the scripted agent times each
// request from its side (request sent -> response parsed) while Tandem serves the buffer text.
// The baseline is a raw NDJSON client on another copy of the same agent that answers the same
// request with the same text held in memory: the floor for moving 5 MB over the pipe twice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities, clientInfo } from '../../src/acp/clientCapabilities';
import { RawNdjsonClient } from '../../test/support/raw-ndjson-client';
import { reviewedSession } from '../../test/support/reviewHarness';
import { distribution, pairedRatios, single, type Bench, type BenchContext, type Figure } from '../shared/figures';
import type { AgentLaunch } from '../shared/agentLaunch';
import { ms, ratio } from '../shared/report';
import { agentEnv, WARMUP_ROUNDS } from '../shared/resources';

const DOCUMENT_BYTES = 5 * 1024 * 1024;

interface Timings { times: number[]; length: number }

/** The agent's own timings of `reads` round trips, sent back as its answer. */
function parseTimings(reply: string, expectedLength: number, who: string): number[] {
  if (!reply) throw new Error(`the scripted agent sent ${who} no timings`);
  const { times, length } = JSON.parse(reply) as Timings;
  if (length !== expectedLength) throw new Error(`${who} read ${length} characters, expected ${expectedLength}`);
  return times;
}

/** Tandem serving the open buffer: one prompt of `reads` round trips. */
async function tandemReader(launch: AgentLaunch, path: string, text: string, workspace: string) {
  const { session, documents } = reviewedSession(launch.definition, workspace);
  // Open and unsaved: the buffer, not the disk, must be served.
  documents.open.set(path, text);
  return {
    async read(reads: number): Promise<number[]> {
      await session.prompt(`fs-read-bench ${path} ${reads}`);
      return parseTimings(session.thread.lastAgentText(), text.length, 'Tandem');
    },
    async close(): Promise<void> {
      await session.stopAgent();
      session.dispose();
    },
  };
}

/** The echo baseline: answers every fs/read_text_file with the same text, no editor, no SDK. */
async function echoReader(launch: AgentLaunch, path: string, text: string) {
  let reply = '';
  const client = RawNdjsonClient.spawn({ command: launch.definition.command, args: launch.definition.args, env: agentEnv(launch.definition), cwd: launch.cwd }, {
    requestTimeoutMs: 120_000,
    onRequest: (method) => {
      if (method !== acp.methods.client.fs.readTextFile) throw new Error(`unexpected ${method}`);
      return { content: text };
    },
    onNotification: (method, params) => {
      const update = (params as { update?: { sessionUpdate?: string; content?: { text?: string } } }).update;
      if (method === 'session/update' && update?.sessionUpdate === 'agent_message_chunk') reply += update.content?.text ?? '';
    },
  });
  await client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: clientCapabilities({ fs: true, terminals: false }), clientInfo });
  for (const step of launch.preSession) await client.request(step.method, step.params);
  const { sessionId } = await client.request<{ sessionId: string }>('session/new', { cwd: launch.cwd, mcpServers: [] });
  return {
    async read(reads: number): Promise<number[]> {
      reply = '';
      await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `fs-read-bench ${path} ${reads}` }] });
      return parseTimings(reply, text.length, 'the echo client');
    },
    close: () => client.close(),
  };
}

/** Both readers warmed up, then one read each per round, alternating which goes first. */
async function measure(context: BenchContext, path: string, text: string, workspace: string) {
  const target = await context.scriptedAgent();
  const launches = [target.launch(), target.launch()] as const;
  const tandem = await tandemReader(launches[0], path, text, workspace);
  const echo = await echoReader(launches[1], path, text).catch(async (error: unknown) => {
    await tandem.close();
    throw error;
  });
  const runs = context.options.quick ? 5 : 15;
  const samples = { tandem: [] as number[], echo: [] as number[] };
  try {
    await tandem.read(WARMUP_ROUNDS);
    await echo.read(WARMUP_ROUNDS);
    for (let round = 0; round < runs; round++) {
      for (const side of round % 2 === 0 ? (['tandem', 'echo'] as const) : (['echo', 'tandem'] as const)) {
        samples[side].push(...await (side === 'tandem' ? tandem : echo).read(1));
      }
    }
    return samples;
  } finally {
    await tandem.close();
    await echo.close();
    for (const launch of launches) launch.dispose();
  }
}

const spread = (figure: Figure) => `median ${ms(figure.value)}, min ${ms(figure.min ?? figure.value)}, max ${ms(figure.max ?? figure.value)}`;

export const fsReadBench: Bench = {
  name: 'fsRead',
  title: 'fs/read_text_file: an open, unsaved document',
  async run(context) {
    const workspace = mkdtempSync(join(tmpdir(), 'tandem-fsbench-'));
    const path = join(workspace, 'big.ts');
    const line = 'export const value = "0123456789abcdefghijklmnopqrstuvwxyz"; // padding\n';
    const text = line.repeat(Math.ceil(DOCUMENT_BYTES / line.length));
    writeFileSync(path, 'on disk\n');
    try {
      const samples = await measure(context, path, text, workspace);
      const roundTrip = distribution(samples.tandem, 'ms');
      const echo = distribution(samples.echo, 'ms');
      const vsEcho = pairedRatios(samples.tandem, samples.echo);
      return {
        section: 'fsRead',
        figures: { 'fsRead.roundTripMs': roundTrip, 'fsRead.echoRoundTripMs': echo, 'fsRead.vsEcho': vsEcho, 'fsRead.documentBytes': single(text.length, 'bytes') },
        lines: [
          `fs/read_text_file, open ${(text.length / 1048576).toFixed(1)} MiB document, agent-side round trip over ${roundTrip.runs} rounds after ${WARMUP_ROUNDS} warm-up, order alternated:`,
          `  Tandem (unsaved buffer):          ${spread(roundTrip)}`,
          `  raw NDJSON echo of the same text: ${spread(echo)}`,
          `  Tandem / echo per round: median ${ratio(vsEcho.value)}, min ${ratio(vsEcho.min ?? vsEcho.value)}, max ${ratio(vsEcho.max ?? vsEcho.value)}`,
        ],
      };
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  },
};
