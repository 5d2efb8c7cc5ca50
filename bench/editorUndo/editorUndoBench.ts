/**
 * Undo all through the real editor: the packaged extension in code-server, an agent writing a
 * 20,000-line file through the editor (fs/write_text_file) with 200 separate hunks, and the
 * changes bar's "Undo all" clicked in Chromium. Timed from the click until the file on disk is
 * byte for byte the original (sha256, polled every few ms); each run checks it is. Runs alternate
 * between the file shown in an editor and not shown, which VS Code handles differently. With the
 * file shown, Ctrl+Z in its editor then Ctrl+S is timed too, until the agent's bytes are back:
 * Undo all is one step on the editor's undo stack.
 * Alone: `npm run package && npm run bench -- editorUndo`.
 */
import { statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sha256 } from '../../test/support/hashes';
import { openBytesWorkbench, utf8, type PanelDriver } from '../../test/support/panelDriver';
import { openFile, runCommand, screenshot } from '../../test/support/workbench';
import { distribution, single, type Bench } from '../shared/figures';
import { count, ms, table } from '../shared/report';
import { median } from '../shared/stats';

const LINES = 20_000;
const HUNKS = 200;
/** How often the disk is read while waiting for the undo to land: the figures' resolution. */
const POLL_MS = 2;

function fileText(agent: boolean): string {
  const lines: string[] = [];
  for (let line = 0; line < LINES; line++) {
    const changed = agent && line % (LINES / HUNKS) === LINES / HUNKS / 2;
    lines.push(changed ? `export const value${line} = compute(${line}, 'changed by the agent');\n` : `export const value${line} = compute(${line});\n`);
  }
  return lines.join('');
}

interface Sample {
  shown: boolean;
  ms: number;
  /** Ctrl+Z then Ctrl+S in the file's editor until the agent's bytes are on disk (shown runs only). */
  ctrlZMs?: number;
}

/**
 * Waits until the file holds exactly `want`. The size is polled and the file read and hashed only
 * when it has the wanted size: hashing 1.3 MB every few ms would take a core of this 2-core
 * machine away from the editor being measured.
 */
async function untilOnDisk(ui: PanelDriver, file: string, want: Buffer, what: string): Promise<void> {
  const wanted = sha256(want);
  const deadline = Date.now() + 120_000;
  while (!(sizeOf(ui.at(file)) === want.length && sha256(ui.onDisk(file)) === wanted)) {
    if (Date.now() > deadline) throw new Error(`editorUndo bench: ${what} did not bring back the expected bytes within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

/** Ctrl+Z in the file's editor (focused by a click into its text), then Ctrl+S, timed until `agentBytes` are on disk. */
async function ctrlZOnce(ui: PanelDriver, file: string, agentBytes: Buffer): Promise<number> {
  await ui.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  const started = performance.now();
  await ui.page.keyboard.press('Control+Z');
  await ui.page.keyboard.press('Control+S');
  await untilOnDisk(ui, file, agentBytes, 'Ctrl+Z and Ctrl+S after Undo all');
  return performance.now() - started;
}

/**
 * One run: the agent's write, then Undo all timed until the original bytes are back. Each run
 * has a file of its own: an agent writing again over its undone change would be asked about
 * (Tandem guards the file as the agent last saw it), and plain text keeps language features out.
 */
async function undoOnce(ui: PanelDriver, run: number, original: Buffer, agentText: string, shown: boolean): Promise<Sample> {
  const file = `big-${run}.txt`;
  writeFileSync(ui.at(file), original);
  if (shown) await openFile(ui.page, file);
  else await runCommand(ui.page, 'View: Close All Editors');
  await ui.turn(`bytes-editor ${ui.request([ui.editorEntry(file, agentText)])}`, 180_000);
  await ui.expectBytes(file, utf8(agentText), 60_000);
  await ui.pendingFiles(1);
  const summary = await ui.changesBar().locator('.changes-summary').innerText();
  if (!summary.includes(`of ${HUNKS} hunks`)) throw new Error(`editorUndo bench: review shows "${summary}", not ${HUNKS} hunks`);
  const undo = ui.barButton('Undo all');
  await undo.waitFor({ timeout: 15_000 });
  const started = performance.now();
  await undo.click();
  await untilOnDisk(ui, file, original, 'Undo all');
  const elapsed = performance.now() - started;
  await ui.pendingFiles(0, 30_000);
  if (!shown) return { shown, ms: elapsed };
  return { shown, ms: elapsed, ctrlZMs: await ctrlZOnce(ui, file, utf8(agentText)) };
}

export const editorUndoBench: Bench = {
  name: 'editorUndo',
  title: 'Undo all through the real editor (code-server)',
  async run({ options, progress, cleanup }) {
    const runs = options.quick ? 5 : 7;
    progress(`editorUndo: starting code-server with the packaged extension`);
    const workbench = await openBytesWorkbench('bench-editor-undo', { 'tandem.review.tellAgentAboutUndo': false });
    cleanup.add('stop code-server (editorUndo)', () => workbench.close());
    const original = utf8(fileText(false));
    const agentText = fileText(true);
    const samples: Sample[] = [];
    try {
      // A warm-up run, then the measured ones, shown and hidden in turn (both orders).
      await undoOnce(workbench.ui, 0, original, agentText, true);
      for (let run = 0; run < 2 * runs; run++) {
        const shown = run % 4 === 0 || run % 4 === 3;
        progress(`editorUndo: run ${run + 1} of ${2 * runs} (${shown ? 'shown in an editor' : 'not shown'})`);
        samples.push(await undoOnce(workbench.ui, run + 1, original, agentText, shown));
      }
    } catch (error) {
      progress(`editorUndo: failed; the workbench as it was: ${await screenshot(workbench.ui.page, 'bench-editor-undo-failed').catch(() => 'no screenshot')}`);
      throw error;
    } finally {
      await workbench.close();
    }
    const of = (shown: boolean) => samples.filter((sample) => sample.shown === shown).map((sample) => sample.ms);
    const [shownMs, hiddenMs] = [of(true), of(false)];
    const ctrlZMs = samples.flatMap((sample) => (sample.ctrlZMs === undefined ? [] : [sample.ctrlZMs]));
    const row = (what: string, values: number[]) => [what, ms(Math.min(...values)), ms(median(values)), ms(Math.max(...values)), String(values.length)];
    return {
      section: 'review',
      figures: {
        'review.editorUndoAllMs': distribution(shownMs, 'ms'),
        'review.editorUndoAllHiddenMs': distribution(hiddenMs, 'ms'),
        'review.editorUndoAllHiddenVsShown': single(median(hiddenMs) / median(shownMs), 'x'),
        'review.editorUndoAllCtrlZMs': distribution(ctrlZMs, 'ms'),
      },
      lines: [
        `Undo all of ${count(HUNKS)} hunks in a ${count(LINES)}-line file (${Math.round(original.length / 1024)} KB) written through the editor; click -> original sha256 on disk (polled every ${POLL_MS} ms), every run checked`,
        table([{ title: 'file' }, { title: 'min', align: 'right' }, { title: 'median', align: 'right' }, { title: 'max', align: 'right' }, { title: 'runs', align: 'right' }], [
          row('shown in an editor', shownMs),
          row('not shown in an editor', hiddenMs),
          row('then Ctrl+Z + Ctrl+S in the editor -> agent\'s sha256 on disk', ctrlZMs),
        ]),
        `not shown / shown (medians): ${(median(hiddenMs) / median(shownMs)).toFixed(2)}x`,
      ],
    };
  },
};
