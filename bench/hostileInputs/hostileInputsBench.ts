/**
 * Inputs built to be slow, timed: hostile text through the credential matcher, whole-file
 * rewrites through the line diff and the agent diff view, and what fs/read_text_file must refuse
 * without reading (four FIFOs with no writer beside a plain file, a 1 GB sparse file). The unit
 * tests prove what comes out of each (test/support/slowInputs.ts); these are their times.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentDiffView } from '../../src/contract/agentDiff';
import { findSecrets } from '../../src/redaction/secrets';
import { diffLineArrays } from '../../src/review/lineDiff';
import { DiskBackedDocuments } from '../../test/support/memoryDocuments';
import { editorFsService } from '../../test/support/pathEscapeCases';
import { diffWorstCases, HOSTILE_SECRET_TEXTS, longFileRewrite } from '../../test/support/slowInputs';
import { distribution, prefixed, type Bench, type BenchContext, type Figures } from '../shared/figures';
import { minMedianMax, ms, table } from '../shared/report';
import { WARMUP_ROUNDS, withTimeout } from '../shared/resources';

/** A FIFO read that blocks would never end: the bench stops with an error instead. */
const REFUSAL_LIMIT_MS = 30_000;

/** `runs` timings of `work` after the warm-up rounds. */
async function timings(runs: number, work: () => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    const started = performance.now();
    await work();
    if (round >= WARMUP_ROUNDS) samples.push(performance.now() - started);
  }
  return samples;
}

async function measureText(runs: number): Promise<Figures> {
  const figures: Figures = {};
  for (const { name, text } of HOSTILE_SECRET_TEXTS) figures[`secrets.${name}Ms`] = distribution(await timings(runs, () => findSecrets(text)), 'ms');
  for (const { name, from, to } of diffWorstCases()) figures[`diff.${name}Ms`] = distribution(await timings(runs, () => diffLineArrays(from, to)), 'ms');
  const rewrite = longFileRewrite();
  figures['agentDiff.rewrite5kMs'] = distribution(await timings(runs, () => agentDiffView(rewrite)), 'ms');
  return figures;
}

/** fs/read_text_file as an agent reaches it, on a workspace of its own (no question is ever answered yes). */
function fsReader(workspace: string) {
  const fs = editorFsService({ workspace, documents: new DiskBackedDocuments(), asked: [], recorded: [] });
  return (path: string) => fs.readTextFile({ sessionId: 's', path });
}

async function measureRefusals(context: BenchContext, runs: number): Promise<Figures> {
  const workspace = context.scratchDir('hostile-inputs');
  const read = fsReader(workspace);
  const notes = join(workspace, 'notes.txt');
  writeFileSync(notes, 'inside\n');
  const fifos = ['a', 'b', 'c', 'd'].map((name) => join(workspace, `${name}.fifo`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const huge = join(workspace, 'huge.log');
  writeFileSync(huge, 'x');
  truncateSync(huge, 1024 ** 3);
  try {
    const fifoRefusals = await timings(runs, () => withTimeout(Promise.allSettled([...fifos.map(read), read(notes)]), REFUSAL_LIMIT_MS, 'four FIFO reads and a plain one'));
    const sparse = await timings(runs, () => withTimeout(read(huge).catch(() => undefined), REFUSAL_LIMIT_MS, 'a read of a 1 GB sparse file'));
    return { 'fs.fifoRefusalsMs': distribution(fifoRefusals, 'ms'), 'fs.sparse1GBRefusalMs': distribution(sparse, 'ms') };
  } finally {
    // Wakes a read a regression left blocked on a pipe.
    for (const fifo of fifos) closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    rmSync(huge, { force: true });
  }
}

const ROWS: [key: string, label: string][] = [
  ...HOSTILE_SECRET_TEXTS.map(({ name, text }): [string, string] => [`secrets.${name}Ms`, `credential matcher, ${JSON.stringify(text.slice(0, 8))}… (${(text.length / 1000).toFixed(0)}k chars)`]),
  ['diff.rewrite20kMs', 'line diff, 20,000 lines all rewritten'],
  ['diff.repetitive20kMs', 'line diff, 20,000 lines of braces and blanks, every 97th changed'],
  ['agentDiff.rewrite5kMs', 'agent diff view, a 5,000-line file rewritten'],
  ['fs.fifoRefusalsMs', 'fs/read_text_file: four FIFOs refused and a plain file read'],
  ['fs.sparse1GBRefusalMs', 'fs/read_text_file: a 1 GB sparse file refused'],
];

export const hostileInputsBench: Bench = {
  name: 'hostileInputs',
  title: 'Hostile inputs: slow text, whole-file rewrites, files fs/* must refuse',
  async run(context) {
    const runs = context.options.quick ? 5 : 11;
    context.progress(`hostileInputs: ${HOSTILE_SECRET_TEXTS.length} hostile texts, 3 rewrites, 2 refusals, ${WARMUP_ROUNDS} warm-up + ${runs} runs each`);
    const figures: Figures = { ...await measureText(runs), ...await measureRefusals(context, runs) };
    const rows = ROWS.map(([key, label]) => {
      const figure = figures[key];
      return [label, figure ? minMedianMax(figure, ms) : '-'];
    });
    return {
      section: 'hostileInputs',
      figures: prefixed('hostileInputs', figures),
      lines: [`   ${runs} runs after ${WARMUP_ROUNDS} warm-up each.`, table([{ title: 'input' }, { title: 'min / median / max', align: 'right' }], rows)],
    };
  },
};
