// fs/read_text_file round trip for an open 5 MB document: the scripted agent times each
// request from its side (request sent -> response parsed) while Tandem serves the buffer text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reviewedSession } from '../test/support/reviewHarness';
import { scriptedAgentDefinition } from '../test/support/scriptedAgentSpec';
import { median } from './stats';

export async function runFsReadBench(options: { quick: boolean }): Promise<Record<string, number>> {
  const workspace = mkdtempSync(join(tmpdir(), 'tandem-fsbench-'));
  const path = join(workspace, 'big.ts');
  const line = 'export const value = "0123456789abcdefghijklmnopqrstuvwxyz"; // padding\n';
  const text = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
  writeFileSync(path, 'on disk\n');
  const { session, documents } = reviewedSession(scriptedAgentDefinition(), workspace);
  // Open and unsaved: the buffer, not the disk, must be served.
  documents.open.set(path, text);
  const runs = options.quick ? 5 : 15;
  try {
    await session.prompt(`fs-read-bench ${path} ${runs + 1}`);
    const { times, length } = JSON.parse(session.thread.lastAgentText()) as { times: number[]; length: number };
    if (length !== text.length) throw new Error(`read ${length} characters, expected ${text.length}`);
    const measured = times.slice(1);
    const figures = { sizeMiB: text.length / 1048576, medianMs: median(measured), minMs: Math.min(...measured), runs: measured.length };
    process.stdout.write(`fs/read_text_file, open ${figures.sizeMiB.toFixed(1)} MiB document (unsaved buffer), agent-side round trip: median ${figures.medianMs.toFixed(1)} ms, min ${figures.minMs.toFixed(1)} ms over ${figures.runs} runs after 1 warm-up\n`);
    process.stdout.write(`FS_READ_BENCH_JSON ${JSON.stringify(figures)}\n`);
    return figures;
  } finally {
    await session.stopAgent();
    session.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
}
