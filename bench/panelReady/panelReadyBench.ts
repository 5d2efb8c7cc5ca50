/**
 * How soon the chat panel is usable once the user opens it, in the real editor: the packaged
 * extension in code-server, Chromium clicking Tandem's icon in the activity bar. Timed from that
 * click (which comes before VS Code asks the extension to resolve the view, so the figure counts
 * the editor's own part too) until a key typed into the message box shows in it. Two ways in,
 * alternated run by run:
 * - first open in a new window: the window reloaded with another view in front and the extension
 *   activated, so the view is resolved for the first time in that extension host;
 * - reopen: the panel hidden behind the Explorer (its document is destroyed) and shown again.
 * Alone: `npm run package && npm run bench -- panelReady`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { openTandemWorkbench, SAMPLE_WORKSPACE, tempWorkspace, type TandemWorkbench } from '../../test/support/tandemWorkbench';
import { screenshot } from '../../test/support/workbench';
import { distribution, type Bench, type Figures } from '../shared/figures';
import { ms, table } from '../shared/report';
import { median } from '../shared/stats';

type Way = 'firstOpen' | 'reopen';

const WAYS: Record<Way, string> = { firstOpen: 'first open in a new window', reopen: 'reopen after hiding' };
const TANDEM_ICON = '.activitybar .action-item a[aria-label^="Tandem"], .activitybar .action-item[aria-label^="Tandem"]';
/** The letter typed: the message box is emptied after every run, so it must read exactly this. */
const TYPED = 'x';
/** How long a pressed key is given to show in the message box before the next press. */
const KEY_SHOWS_WITHIN_MS = 150;

/** The panel's webview document (a webview is an iframe holding the document's iframe). */
const panelFrame = (page: Page): FrameLocator => page.frameLocator('iframe.webview').first().frameLocator('iframe').first();

/** How many windows have activated Tandem so far: each writes its log to a folder of its own. */
function activations(userDataDir: string): number {
  const logs = join(userDataDir, 'logs');
  if (!existsSync(logs)) return 0;
  return readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('Tandem.log'))
    .filter((file) => readFileSync(join(logs, file), 'utf8').includes('Tandem activated')).length;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`panelReady bench: ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The side bar shows the Explorer, so Tandem's view is hidden. */
async function showExplorer(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+E');
  await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 10_000 });
}

/** The panel hidden: its webview document goes, so showing it again builds a new one. */
async function hidePanel(page: Page): Promise<void> {
  await showExplorer(page);
  await until('the hidden panel kept its webview', async () => (await page.locator('iframe.webview').count()) === 0, 10_000);
}

/** A new window with the Explorer in front, once Tandem is active in it and has not resolved its view. */
async function reloadWithoutPanel(workbench: TandemWorkbench): Promise<void> {
  const { page, server } = workbench;
  await showExplorer(page);
  const before = activations(server.userDataDir);
  // Let the workbench store which view is in front before the window goes.
  await page.waitForTimeout(1_000);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await until('Tandem did not activate in the reloaded window', () => activations(server.userDataDir) > before, 60_000);
  if (await page.locator('iframe.webview').count() > 0) throw new Error('panelReady bench: a webview is already open in the reloaded window');
  await page.locator(TANDEM_ICON).first().waitFor({ timeout: 30_000 });
}

/** One opening, and where its time went: the panel's document and script as the webview's own timings say. */
interface Opening {
  readyMs: number;
  /** Click -> the panel's document starts loading: the editor's part (view, webview host, resolveWebviewView, html). */
  documentMs: number;
  /** -> webview.js received. */
  scriptMs: number;
}

/** Click on Tandem's icon until the typed letter shows in the message box; the box is emptied after. */
async function openAndType(page: Page): Promise<Opening> {
  const input = panelFrame(page).locator('#composer-input textarea');
  // Both clocks are the system's: the webview's timings are placed on this one by their epoch.
  // (The global `performance`, which the callback below must find as the page's own.)
  const clickedAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  await page.locator(TANDEM_ICON).first().click();
  let value = '';
  let readyMs = 0;
  while (value === '') {
    await input.press(TYPED, { timeout: 30_000 });
    // A key sent into the webview's frame can be acknowledged before the box shows it: a press
    // that seemed lost may show a moment later, with the next press beside it.
    for (const pressedAt = performance.now(); value === '' && performance.now() - pressedAt < KEY_SHOWS_WITHIN_MS;) value = await input.inputValue();
    readyMs = performance.now() - started;
    if (readyMs > 30_000) throw new Error('panelReady bench: typing never reached the message box');
  }
  if (value !== TYPED.repeat(value.length)) throw new Error(`panelReady bench: the message box holds "${value}" after typing "${TYPED}" into an empty one`);
  const timings = await input.evaluate(() => {
    const script = performance.getEntriesByType('resource').find((entry) => /webview\.js($|\?)/.test(entry.name));
    return { origin: performance.timeOrigin, scriptEnd: script ? performance.timeOrigin + (script as PerformanceResourceTiming).responseEnd : Number.NaN };
  });
  await input.press('Control+A');
  await input.press('Backspace');
  await until('the message box did not empty', async () => (await input.inputValue()) === '', 10_000);
  return { readyMs, documentMs: timings.origin - clickedAt, scriptMs: timings.scriptEnd - timings.origin };
}

/** Later windows start without the panel in front, like a user who has it closed. */
function turnOffRevealOnStartup(userDataDir: string): void {
  const file = join(userDataDir, 'User', 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...settings, 'tandem.revealOnStartup': false }, null, 2));
}

export const panelReadyBench: Bench = {
  name: 'panelReady',
  title: 'Panel: open -> message box accepts input, in code-server',
  async run({ options, progress, cleanup }) {
    const runs = options.quick ? 5 : 7;
    progress('panelReady: starting code-server with the packaged extension');
    const workbench = await openTandemWorkbench(tempWorkspace('bench-panel-ready', SAMPLE_WORKSPACE));
    cleanup.add('stop code-server (panelReady)', () => workbench.close());
    const samples: Record<Way, Opening[]> = { firstOpen: [], reopen: [] };
    try {
      turnOffRevealOnStartup(workbench.server.userDataDir);
      // A warm-up run of each way, then the measured ones with the order swapped every round.
      for (let round = 0; round <= runs; round++) {
        const order: Way[] = round % 2 === 0 ? ['firstOpen', 'reopen'] : ['reopen', 'firstOpen'];
        for (const way of order) {
          progress(`panelReady: ${round === 0 ? 'warm-up' : `round ${round} of ${runs}`}, ${WAYS[way]}`);
          if (way === 'firstOpen') await reloadWithoutPanel(workbench);
          else await hidePanel(workbench.page);
          const opening = await openAndType(workbench.page);
          if (round > 0) samples[way].push(opening);
        }
      }
    } catch (error) {
      progress(`panelReady: failed; the workbench as it was: ${await screenshot(workbench.page, 'bench-panel-ready-failed').catch(() => 'no screenshot')}`);
      throw error;
    } finally {
      await workbench.close();
    }
    const of = (way: Way, part: keyof Opening) => samples[way].map((opening) => opening[part]);
    const figures: Figures = {
      'panel.readyMs': distribution(of('firstOpen', 'readyMs'), 'ms'),
      'panel.reopenReadyMs': distribution(of('reopen', 'readyMs'), 'ms'),
      'panel.firstOpenDocumentMs': distribution(of('firstOpen', 'documentMs'), 'ms'),
    };
    const row = (way: Way) => {
      const figure = distribution(of(way, 'readyMs'), 'ms');
      const rest = of(way, 'readyMs').map((ready, index) => ready - (samples[way][index] as Opening).documentMs - (samples[way][index] as Opening).scriptMs);
      return [WAYS[way], ms(figure.min ?? Number.NaN), ms(figure.value), ms(figure.max ?? Number.NaN), String(figure.runs),
        ms(median(of(way, 'documentMs'))), ms(median(of(way, 'scriptMs'))), ms(median(rest))];
    };
    return {
      section: 'panel',
      figures,
      lines: [
        `Click on Tandem's activity bar icon -> a key typed into the message box shows there (the click comes before resolveWebviewView, so this includes the editor's part)`,
        table([{ title: 'way in' }, { title: 'min', align: 'right' }, { title: 'median', align: 'right' }, { title: 'max', align: 'right' }, { title: 'runs', align: 'right' },
          { title: 'median: click -> document', align: 'right' }, { title: '-> webview.js in', align: 'right' }, { title: '-> key shown', align: 'right' }], [row('firstOpen'), row('reopen')]),
      ],
    };
  },
};
