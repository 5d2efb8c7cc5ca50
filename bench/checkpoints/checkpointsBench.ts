/**
 * Checkpoint figures on real folders, through Tandem's own file service, change ledger and
 * checkpoints (the agent writing the disk itself, as Claude Code does): how long a restore of a
 * checkpoint covering 100 files and 2,000 changed lines takes (preview, then the writes), how
 * long taking a checkpoint is with 100 files pending review, and how much storage a 50-turn
 * session that touched 100 files costs. Alone: `npm run bench -- checkpoints`.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkpointedWorkspace, projectHashes } from '../../test/support/checkpointHarness';
import { distribution, prefixed, single, type Bench, type Figures } from '../shared/figures';
import { count, ms, table } from '../shared/report';
import { median } from '../shared/stats';

const FILES = 100;
const LINES_PER_FILE = 200;
/** 20 changed lines in each of the 100 files: 2,000 in all. */
const CHANGED_PER_FILE = 20;
const TURNS = 50;
/** Files the agent changes per turn, in rotation, so all 100 are touched every 10 turns. */
const FILES_PER_TURN = 10;

function fileText(file: number, version: number): string {
  const lines: string[] = [];
  for (let line = 0; line < LINES_PER_FILE; line++) {
    const changed = version > 0 && line % (LINES_PER_FILE / CHANGED_PER_FILE) === 0;
    lines.push(changed ? `  const value${line} = compute(${file}, ${line}, ${version}); // changed\n` : `  const value${line} = compute(${file}, ${line});\n`);
  }
  return `export function module${file}(): void {\n${lines.join('')}}\n`;
}

function folderBytes(folder: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const stats = statSync(path.join(folder, name));
    if (stats.isFile()) {
      bytes += stats.size;
      files++;
    }
  }
  return { bytes, files };
}

function seed(workspace: string): string[] {
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  return Array.from({ length: FILES }, (_, file) => {
    const name = path.join(workspace, 'src', `module${file}.ts`);
    writeFileSync(name, fileText(file, 0));
    return name;
  });
}

interface RestoreFigures {
  planMs: number[];
  restoreMs: number[];
  checkpointMs: number[];
  changedLines: number;
}

/** One checkpoint, then 2,000 changed lines over 100 files; each run restores to it and brings the changes back with Redo restore. */
async function measureRestore(root: string, runs: number): Promise<RestoreFigures> {
  const workspace = path.join(root, 'restore-workspace');
  const project = checkpointedWorkspace(workspace, path.join(root, 'restore-storage'));
  try {
    const files = seed(workspace);
    const original = projectHashes(workspace);
    const checkpoint = await project.prompt('change every module');
    files.forEach((name, file) => project.diskWrite(name, fileText(file, 1)));
    const changed = projectHashes(workspace);
    // Taking a checkpoint reads and keeps every file pending review.
    const checkpointMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await project.prompt(`look ${run}`);
      checkpointMs.push(performance.now() - started);
    }
    const planMs: number[] = [];
    const restoreMs: number[] = [];
    let changedLines = 0;
    for (let run = 0; run < runs + 1; run++) {
      const started = performance.now();
      const plan = await project.plan(checkpoint.id);
      const planned = performance.now();
      const outcome = await project.restorer.restore(plan, new Set(), 'change every module');
      const done = performance.now();
      if (outcome.written.length !== FILES || JSON.stringify(projectHashes(workspace)) !== JSON.stringify(original)) throw new Error('checkpoints bench: the restore did not bring back every file');
      changedLines = plan.files.reduce((sum, file) => sum + file.added, 0);
      // The first run warms up.
      if (run > 0) {
        planMs.push(planned - started);
        restoreMs.push(done - started);
      }
      const redo = project.store.lastRestore;
      if (!redo) throw new Error('checkpoints bench: no Redo restore');
      await project.restoreTo(redo.id);
      if (JSON.stringify(projectHashes(workspace)) !== JSON.stringify(changed)) throw new Error('checkpoints bench: Redo restore did not bring back every change');
    }
    return { planMs, restoreMs, checkpointMs, changedLines };
  } finally {
    project.dispose();
  }
}

interface StorageFigures {
  blobBytes: number;
  blobFiles: number;
  indexBytes: number;
}

/** 50 turns, each changing 10 of 100 files; `review`: the user keeps each turn's changes (else they stay pending). */
async function measureStorage(root: string, name: string, review: boolean): Promise<StorageFigures> {
  const workspace = path.join(root, `${name}-workspace`);
  const storage = path.join(root, `${name}-storage`);
  const project = checkpointedWorkspace(workspace, storage);
  try {
    const files = seed(workspace);
    for (let turn = 0; turn < TURNS; turn++) {
      await project.prompt(`turn ${turn}`);
      for (let k = 0; k < FILES_PER_TURN; k++) {
        const file = (turn * FILES_PER_TURN + k) % FILES;
        project.diskWrite(files[file] as string, fileText(file, turn + 1));
      }
      if (review) project.ledger.keepAll();
    }
    await project.store.flush();
    const blobs = folderBytes(storage);
    return { blobBytes: blobs.bytes, blobFiles: blobs.files, indexBytes: Buffer.byteLength(JSON.stringify(project.index.state.get('index'))) };
  } finally {
    project.dispose();
  }
}

const mb = (bytes: number) => bytes / (1024 * 1024);

export const checkpointsBench: Bench = {
  name: 'checkpoints',
  title: 'Checkpoints: restore and storage',
  async run({ options, progress, scratchDir }) {
    const runs = options.quick ? 5 : 7;
    const root = scratchDir('checkpoints');
    progress(`checkpoints: restore of ${FILES} files / ${count(FILES * CHANGED_PER_FILE)} changed lines, ${runs} runs`);
    const restore = await measureRestore(root, runs);
    progress(`checkpoints: storage of a ${TURNS}-turn session over ${FILES} files`);
    const kept = await measureStorage(root, 'kept', true);
    const pending = await measureStorage(root, 'pending', false);
    const figures: Figures = {
      restoreMs: distribution(restore.restoreMs, 'ms'),
      restorePlanMs: distribution(restore.planMs, 'ms'),
      restoreChangedLines: single(restore.changedLines, 'count'),
      checkpointWithPendingMs: distribution(restore.checkpointMs, 'ms'),
      storageKeptMB: single(mb(kept.blobBytes), 'MB'),
      storagePendingMB: single(mb(pending.blobBytes), 'MB'),
      indexKeptBytes: single(kept.indexBytes, 'bytes'),
      indexPendingBytes: single(pending.indexBytes, 'bytes'),
    };
    const spread = (samples: number[]) => [ms(Math.min(...samples)), ms(median(samples)), ms(Math.max(...samples))];
    const rows = [
      [`restore: ${FILES} files, ${count(restore.changedLines)} changed lines (preview + writes)`, ...spread(restore.restoreMs), 'through the review writer, every sha256 checked after'],
      ['  of which the preview (plan)', ...spread(restore.planMs), 'reads, hashes and line counts of every file'],
      [`a checkpoint with ${FILES} files pending review`, ...spread(restore.checkpointMs), 'each pending file read and kept (shared by hash)'],
      [`storage, ${TURNS} turns x ${FILES_PER_TURN} files of ${FILES}, changes kept each turn`, '', `${mb(kept.blobBytes).toFixed(2)} MB`, '', `${count(kept.blobFiles)} copies; index ${count(kept.indexBytes)} bytes`],
      [`storage, same session, nothing reviewed (all pending)`, '', `${mb(pending.blobBytes).toFixed(2)} MB`, '', `${count(pending.blobFiles)} copies; index ${count(pending.indexBytes)} bytes`],
    ];
    return {
      section: 'checkpoints',
      figures: prefixed('checkpoints', figures),
      lines: [`Checkpoints (${runs} runs${options.quick ? ', --quick' : ''}; files of ${LINES_PER_FILE} lines, about ${Math.round(fileText(0, 0).length / 1024)} KB)`,
        table([{ title: 'measure' }, { title: 'min', align: 'right' }, { title: 'median', align: 'right' }, { title: 'max', align: 'right' }, { title: 'note' }], rows)],
    };
  },
};
