// fs/read_text_file round trip for an open 5 MB document: the scripted agent times each
// request from its side (request sent -> response parsed) while Tandem serves the buffer text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reviewedSession } from '../test/support/reviewHarness';
import { distribution, single, type Bench, type Figure } from './figures';
import { ms } from './report';
import { WARMUP_ROUNDS } from './resources';

const DOCUMENT_BYTES = 5 * 1024 * 1024;

export const fsReadBench: Bench = {
  name: 'fsRead',
  title: 'fs/read_text_file: an open, unsaved document',
  async run(context) {
    const launch = (await context.scriptedAgent()).launch();
    const workspace = mkdtempSync(join(tmpdir(), 'tandem-fsbench-'));
    const path = join(workspace, 'big.ts');
    const line = 'export const value = "0123456789abcdefghijklmnopqrstuvwxyz"; // padding\n';
    const text = line.repeat(Math.ceil(DOCUMENT_BYTES / line.length));
    writeFileSync(path, 'on disk\n');
    const { session, documents } = reviewedSession(launch.definition, workspace);
    // Open and unsaved: the buffer, not the disk, must be served.
    documents.open.set(path, text);
    const runs = context.options.quick ? 5 : 15;
    try {
      await session.prompt(`fs-read-bench ${path} ${runs + WARMUP_ROUNDS}`);
      const reply = session.thread.lastAgentText();
      if (!reply) throw new Error(`the scripted agent sent no timings: ${session.connectionView.message ?? 'empty reply'}`);
      const { times, length } = JSON.parse(reply) as { times: number[]; length: number };
      if (length !== text.length) throw new Error(`read ${length} characters, expected ${text.length}`);
      const roundTrip: Figure = distribution(times.slice(WARMUP_ROUNDS), 'ms');
      return {
        section: 'fsRead',
        figures: { 'fsRead.roundTripMs': roundTrip, 'fsRead.documentBytes': single(length, 'bytes') },
        lines: [
          `fs/read_text_file, open ${(length / 1048576).toFixed(1)} MiB document (unsaved buffer), agent-side round trip: `
            + `median ${ms(roundTrip.value)}, min ${ms(roundTrip.min ?? roundTrip.value)} over ${roundTrip.runs} runs after ${WARMUP_ROUNDS} warm-up`,
        ],
      };
    } finally {
      await session.stopAgent();
      session.dispose();
      launch.dispose();
      rmSync(workspace, { recursive: true, force: true });
    }
  },
};
