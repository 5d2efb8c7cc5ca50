/**
 * The code-server half of the `undo` row: the packaged extension in a real VS Code, an agent
 * writing files through `fs/write_text_file` (so through the editor's buffers), and the user's
 * decisions made in the panel: Undo all, Keep all, or a keep or undo per file. The disk must
 * then hold exactly the expected bytes (compared by sha256). One code-server serves the whole
 * run; each agent turn writes a batch of files.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Frame } from 'playwright-core';
import { sha256 } from '../../support/hashes';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../../support/code-server';
import { tsxLoader } from '../../support/scriptedAgentSpec';
import { launchBrowser, openWorkbench, webviewFrame, type WorkbenchBrowser } from '../../support/workbench';
import { Random } from '../../support/reviewStressCases';
import { errorText, stopped, type RowOptions, type Tally } from '../row';
import { bufferCases, expectedBytes, type BufferCase, type Decision } from './bufferCases';
import type { WriteBatch } from './writerAgent';

const VSIX = join(REPO_ROOT, 'dist', 'tandem.vsix');
/** Files per agent turn: a full run batches, a quick one still takes every kind of decision. */
const FILES_PER_TURN = { quick: 8, full: 20 };
/** Files written, decided and byte-checked through the editor. */
export const BUFFER_FILES = { quick: 24, full: 300 } as const;
/** The part of the undo row these files count under. */
export const BUFFER_PART = 'files through code-server';
const SEED = 1600;

type BatchMode = 'undo all' | 'keep all' | 'per file';
const MODES: readonly BatchMode[] = ['per file', 'undo all', 'keep all'];

interface Workbench {
  workspace: string;
  panel: Frame;
}

async function send(panel: Frame, text: string): Promise<void> {
  const input = panel.locator('#composer-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

function readOrNull(path: string): Buffer | null {
  return existsSync(path) ? readFileSync(path) : null;
}

/** Where and how two byte strings first differ, in hex, for a detail line. */
function firstDifference(got: Buffer | null, want: Buffer | null): string {
  if (got === null || want === null) return got === null ? 'the file is missing' : 'the file should not exist';
  let at = 0;
  while (at < got.length && at < want.length && got[at] === want[at]) at++;
  const around = (bytes: Buffer) => bytes.subarray(Math.max(0, at - 2), at + 6).toString('hex') || '(end)';
  return `${got.length} bytes, want ${want.length}; first difference at byte ${at}: got ${around(got)}, want ${around(want)}`;
}

function decisionFor(mode: BatchMode, item: BufferCase): Decision {
  if (mode === 'undo all') return 'undo';
  if (mode === 'keep all') return 'keep';
  return item.decision;
}

async function decide(panel: Frame, mode: BatchMode, cases: readonly BufferCase[], workspace: string): Promise<void> {
  const bar = panel.locator('#changes-bar');
  if (mode !== 'per file') {
    await bar.getByRole('button', { name: mode === 'undo all' ? 'Undo all' : 'Keep all', exact: true }).click();
    return;
  }
  const summary = bar.locator('.changes-summary');
  if ((await summary.getAttribute('aria-expanded')) !== 'true') await summary.click();
  for (const item of cases) {
    const row = bar.locator(`.change-row[data-path="${join(workspace, item.path)}"]`);
    await row.locator(`button[title^="${item.decision === 'keep' ? 'Keep' : 'Undo'} all changes to"]`).click({ timeout: 10_000 });
    await row.waitFor({ state: 'detached', timeout: 10_000 });
  }
}

/** Nothing pending any more: the bar is hidden (all kept) or offers only the redo. */
async function waitForNoPending(panel: Frame): Promise<void> {
  await panel.waitForFunction(() => {
    const bar = document.querySelector<HTMLElement>('#changes-bar');
    return bar !== null && (bar.hidden || !/changed/.test(bar.querySelector('.changes-summary')?.textContent ?? ''));
  }, undefined, { timeout: 30_000 });
}

/** The files settle within a few seconds (the editor saves asynchronously); then each is compared once. */
async function compareFiles(workspace: string, cases: readonly BufferCase[], mode: BatchMode, tally: Tally, label: string): Promise<void> {
  const check = (item: BufferCase) => {
    const want = expectedBytes(item, decisionFor(mode, item));
    const got = readOrNull(join(workspace, item.path));
    return sha256(got) === sha256(want) ? undefined : `${label} ${item.path} (${item.name}, ${decisionFor(mode, item)}): sha256 ${sha256(got)}, want ${sha256(want)}; ${firstDifference(got, want)}`;
  };
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && cases.some((item) => check(item) !== undefined)) await new Promise((resolve) => setTimeout(resolve, 200));
  for (const item of cases) tally.record(check(item), BUFFER_PART);
}

async function runTurn(bench: Workbench, batch: number, cases: readonly BufferCase[], mode: BatchMode, tally: Tally): Promise<void> {
  const { panel, workspace } = bench;
  const count = cases.length;
  const label = `turn ${batch + 1} (${mode}):`;
  for (const item of cases) {
    const path = join(workspace, item.path);
    mkdirSync(dirname(path), { recursive: true });
    if (item.before !== null) writeFileSync(path, item.before);
  }
  const batchFile = join(dirname(workspace), `batch-${batch}.json`);
  const request: WriteBatch = { files: cases.map((item) => ({ path: join(workspace, item.path), content: item.agentText })) };
  writeFileSync(batchFile, JSON.stringify(request));
  const turns = await panel.locator('.turn-ended').count();
  await send(panel, `write-batch ${batchFile}`);
  await panel.locator('.turn-ended').nth(turns).waitFor({ state: 'attached', timeout: batch === 0 ? 120_000 : 60_000 });
  const reviewed = panel.locator('#changes-bar .changes-summary', { hasText: `${count} ${count === 1 ? 'file' : 'files'} changed` });
  if (!(await reviewed.waitFor({ timeout: 15_000 }).then(() => true, () => false))) {
    const shown = await panel.locator('#changes-bar').innerText().catch(() => '(no bar)');
    tally.fail(`${label} the review does not show the ${count} files the agent wrote: ${JSON.stringify(shown.slice(0, 120))}`);
  }
  await decide(panel, mode, cases, workspace);
  await waitForNoPending(panel);
  await compareFiles(workspace, cases, mode, tally, label);
}

/** A turn that broke counts each of its files as failed, and leaves nothing pending for the next. */
async function runBatch(bench: Workbench, batch: number, count: number, options: RowOptions, tally: Tally): Promise<void> {
  const cases = bufferCases(new Random(SEED + batch), count, `stress/b${String(batch).padStart(2, '0')}`);
  const mode = MODES[batch % MODES.length] as BatchMode;
  const recorded = tally.tried;
  try {
    await runTurn(bench, batch, cases, mode, tally);
  } catch (error) {
    if (stopped(options)) return;
    for (const item of cases.slice(tally.tried - recorded)) tally.record(`turn ${batch + 1} (${mode}): ${item.path} (${item.name}): the turn broke: ${errorText(error)}`, BUFFER_PART);
    const keepAll = bench.panel.locator('#changes-bar').getByRole('button', { name: 'Keep all', exact: true });
    if (await keepAll.isVisible().catch(() => false)) await keepAll.click().then(() => waitForNoPending(bench.panel)).catch(() => undefined);
  }
}

async function startWorkbench(root: string, options: RowOptions): Promise<{ bench: Workbench; server: CodeServer; browser: WorkbenchBrowser }> {
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const started = performance.now();
  const server = await startCodeServer({
    workspace,
    vsix: VSIX,
    settings: {
      'tandem.revealOnStartup': true,
      'tandem.defaultAgent': 'stress-writer',
      'tandem.agents': { 'stress-writer': { label: 'Stress writer', command: process.execPath, args: ['--import', tsxLoader, join(__dirname, 'writerAgent.ts')] } },
    },
  });
  try {
    const browser = await launchBrowser({ viewport: { width: 1400, height: 950 } });
    options.signal.addEventListener('abort', () => void browser.close(), { once: true });
    const page = await openWorkbench(browser, server.url);
    const panel = await webviewFrame(page, '#tandem-root .composer', 90_000);
    options.progress(`code-server and the panel up in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return { bench: { workspace, panel }, server, browser };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function bufferRoundTrips(options: RowOptions, tally: Tally): Promise<void> {
  if (!existsSync(VSIX)) {
    tally.fail(`${VSIX} is missing: run npm run package first (npm test builds it)`);
    return;
  }
  const total = options.quick ? BUFFER_FILES.quick : BUFFER_FILES.full;
  const perTurn = options.quick ? FILES_PER_TURN.quick : FILES_PER_TURN.full;
  const root = mkdtempSync(join(tmpdir(), 'tandem-stress-undo-'));
  const started = performance.now();
  let resources: Awaited<ReturnType<typeof startWorkbench>> | undefined;
  try {
    resources = await startWorkbench(root, options);
    const turns = Math.ceil(total / perTurn);
    for (let batch = 0; batch < turns && !stopped(options); batch++) {
      const count = Math.min(perTurn, total - batch * perTurn);
      options.progress(`code-server turn ${batch + 1} of ${turns} (${count} files)`);
      await runBatch(resources.bench, batch, count, options, tally);
    }
  } finally {
    await resources?.browser.close();
    await resources?.server.stop();
    rmSync(root, { recursive: true, force: true });
  }
  tally.note(`through code-server: ${total} files in turns of ${perTurn} (per file, undo all, keep all in turn), ${((performance.now() - started) / 1000).toFixed(0)} s with one code-server start`);
}
