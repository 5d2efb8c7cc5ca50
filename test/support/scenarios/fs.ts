import { performance } from 'node:perf_hooks';
import * as acp from '@agentclientprotocol/sdk';
import { streamText } from '../../../src/demo-agent/agentKit';
import type { Scenario } from './scenario';

/** Scenarios that exercise the client's fs/* (the scripted agent is the only one that benchmarks it). */
export const fsScenarios: Record<string, Scenario> = {
  /** `fs-read-bench <path> <runs>`: times fs/read_text_file round trips and replies with the milliseconds as JSON. */
  async 'fs-read-bench'(client, sessionId, rest) {
    const [path = '', runs = '5'] = rest.split(' ');
    const times: number[] = [];
    let length = 0;
    for (let i = 0; i < Number(runs); i++) {
      const started = performance.now();
      const response = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path });
      times.push(performance.now() - started);
      length = response.content.length;
    }
    await streamText(client, sessionId, JSON.stringify({ times, length }), { chunkSize: 100_000 });
    return 'end_turn';
  },
};
