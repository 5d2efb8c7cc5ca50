/**
 * The `markdown` row: hostile agent text in the panel's real webview bundle under the real CSP
 * (the panel harness serves the extension's own document). Each payload streams in as an agent
 * message in random chunks, then the whole thread is drawn again from a snapshot (agent messages
 * and thoughts), and every link in it is clicked. A payload fails when anything it carries ran
 * (`window.__pwned`, page errors), loaded (a request past the CSP, a CSP violation), survived the
 * sanitizer (the shared hostileContent scan), opened something the host's link policy would not
 * open, or navigated the panel; and when text it must show as text is missing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThreadEntry } from '../../../src/thread/entries';
import { linkTarget, type LinkWorkspace } from '../../../src/panel/linkPolicy';
import { hostileContent } from '../../support/hostileContent';
import { panelState } from '../../support/panelFixtures';
import { Random } from '../../support/reviewStressCases';
import { openPanel, type PanelHarness } from '../../support/panelHarness';
import { launchBrowser, type WorkbenchBrowser } from '../../support/workbench';
import { CASES, errorText, stopped, type RowOptions, type StressRow, type Tally } from '../row';
import { hostilePayloads, REMOTE_HOST, type HostilePayload } from './payloads';

/** Payloads per page load: a payload that breaks its page cannot hide the others' results. */
const PER_PAGE = 25;
const END_MARK = 'END-OF-STRESS-PAGE';

interface PageWatch {
  harness: PanelHarness;
  navigations: string[];
  popups: string[];
}

/** Problems found on one page, by payload id (0: not attributable to one payload). */
class Findings {
  private readonly byPayload = new Map<number, string[]>();

  add(id: number, problem: string): void {
    this.byPayload.set(id, [...(this.byPayload.get(id) ?? []), problem]);
  }

  of(id: number): string[] {
    return this.byPayload.get(id) ?? [];
  }
}

const payloadIdIn = (text: string) => Number(new RegExp(`${REMOTE_HOST.replace(/\./g, '\\.')}/p(\\d+)`).exec(text)?.[1] ?? 0);

/** Small and uneven pieces, so tags and entities are cut at every kind of place (the same cuts on every run). */
function chunks(text: string, random: Random): string[] {
  const parts: string[] = [];
  for (let offset = 0; offset < text.length;) {
    const size = 1 + random.int(24);
    parts.push(text.slice(offset, offset + size));
    offset += size;
  }
  return parts;
}

async function streamPayloads(harness: PanelHarness, payloads: readonly HostilePayload[]): Promise<void> {
  await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'show me' }]) });
  for (const payload of payloads) {
    const random = new Random(payload.id);
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: `m${payload.id}`, text: '' } }] });
    // Huge payloads go in big pieces: the point there is the renderer's bounds, not the cuts.
    const parts = payload.text.length > 20_000 ? payload.text.match(/[\s\S]{1,50000}/g) ?? [] : chunks(payload.text, random);
    for (const text of parts) await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: `m${payload.id}`, text }] });
  }
  await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'end', text: END_MARK } }] });
  await harness.page.locator('.agent-message', { hasText: END_MARK }).waitFor({ timeout: 60_000 });
}

async function redrawFromSnapshot(harness: PanelHarness, payloads: readonly HostilePayload[]): Promise<void> {
  const entries: ThreadEntry[] = [{ kind: 'user', id: 'u', text: 'show me' }];
  for (const payload of payloads) {
    entries.push({ kind: 'thought', id: `t${payload.id}`, text: payload.text }, { kind: 'agentMessage', id: `m${payload.id}`, text: payload.text });
  }
  entries.push({ kind: 'agentMessage', id: 'end2', text: `${END_MARK} again` });
  await harness.post({ type: 'snapshot', state: panelState(entries) });
  await harness.page.locator('.agent-message', { hasText: `${END_MARK} again` }).waitFor({ timeout: 60_000 });
  // Thoughts fold as the thread moves on: open them so their links are clicked too.
  await harness.page.locator('.thread details').evaluateAll((nodes) => nodes.forEach((node) => ((node as HTMLDetailsElement).open = true)));
}

/** Clicks every link in the thread like a user would, or dispatches the click where none could reach it. */
async function clickEveryLink(harness: PanelHarness): Promise<number> {
  const links = await harness.page.locator('#tandem-root .thread a').all();
  for (const link of links) {
    await link.click({ timeout: 1_000, noWaitAfter: true }).catch(() => link.dispatchEvent('click').catch(() => undefined));
  }
  await harness.page.waitForTimeout(300);
  return links.length;
}

async function checkShownText(harness: PanelHarness, payloads: readonly HostilePayload[], findings: Findings, when: string): Promise<void> {
  for (const payload of payloads) {
    if (payload.shownAs === undefined) continue;
    const shown = await harness.page.locator(`[data-entry-id="m${payload.id}"]`).innerText({ timeout: 2_000 }).catch(() => '');
    if (!shown.includes(payload.shownAs)) findings.add(payload.id, `${when}: ${JSON.stringify(payload.shownAs)} does not show as text`);
  }
}

/** What the host would do with each link the panel asked it to open. */
function checkOpenedLinks(harness: PanelHarness, workspace: LinkWorkspace, findings: Findings): number {
  let asked = 0;
  for (const message of harness.sent) {
    if (message.type !== 'openLink') continue;
    asked++;
    const id = payloadIdIn(message.href);
    if (/^\s*(javascript|vbscript|data):/i.test(message.href)) findings.add(id, `the panel asked the host to open a script link ${JSON.stringify(message.href)}`);
    const target = linkTarget(message.href, workspace);
    if (target.kind === 'web' && !/^https?:\/\/[^/]/i.test(target.url)) findings.add(id, `the link policy would open ${JSON.stringify(target.url)} externally`);
    if (target.kind === 'file' && !workspace.folders.some((folder) => target.path.startsWith(`${folder}/`))) findings.add(id, `the link policy would open ${target.path}, outside the workspace`);
  }
  return asked;
}

async function collect(watch: PageWatch, payloads: readonly HostilePayload[], workspace: LinkWorkspace, findings: Findings): Promise<number> {
  const { harness } = watch;
  const ran = await harness.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null);
  if (Array.isArray(ran)) for (const id of ran) findings.add(Number(id), 'its script ran');
  else if (ran !== null) findings.add(0, `window.__pwned was set to a ${typeof ran} (${String(ran).slice(0, 60)})`);
  for (const payload of payloads) {
    for (const entry of await harness.page.locator(`[data-entry-id="m${payload.id}"], [data-entry-id="t${payload.id}"]`).all()) {
      for (const item of await entry.evaluate(hostileContent)) findings.add(payload.id, `the sanitizer let through ${item}`);
    }
  }
  for (const url of harness.blockedRequests) findings.add(payloadIdIn(url), `a request left the panel: ${url}`);
  const violations = await harness.page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
  for (const violation of violations) findings.add(payloadIdIn(violation), `the CSP had to stop ${violation}`);
  for (const error of harness.pageErrors) findings.add(payloadIdIn(error), `page error: ${error.slice(0, 160)}`);
  for (const url of watch.navigations) findings.add(payloadIdIn(url), `the panel navigated to ${url}`);
  for (const url of watch.popups) findings.add(payloadIdIn(url), `a window opened at ${url}`);
  if (!(await harness.page.locator('#composer-input').isVisible())) findings.add(0, 'the composer is no longer visible');
  return checkOpenedLinks(harness, workspace, findings);
}

async function watchPage(browser: WorkbenchBrowser): Promise<PageWatch> {
  const harness = await openPanel({ browser });
  const watch: PageWatch = { harness, navigations: [], popups: [] };
  const start = harness.page.url();
  harness.page.on('framenavigated', (frame) => {
    if (frame === harness.page.mainFrame() && frame.url() !== start) watch.navigations.push(frame.url());
  });
  harness.page.on('popup', (popup) => watch.popups.push(popup.url()));
  await harness.page.evaluate(() => {
    const store: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = store;
    document.addEventListener('securitypolicyviolation', (event) => store.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`));
  });
  return watch;
}

interface PageCounts {
  links: number;
  asked: number;
}

async function runPage(browser: WorkbenchBrowser, payloads: readonly HostilePayload[], workspace: LinkWorkspace, tally: Tally): Promise<PageCounts> {
  const watch = await watchPage(browser);
  const findings = new Findings();
  try {
    await streamPayloads(watch.harness, payloads);
    await checkShownText(watch.harness, payloads, findings, 'streamed');
    await redrawFromSnapshot(watch.harness, payloads);
    await checkShownText(watch.harness, payloads, findings, 'redrawn');
    const links = await clickEveryLink(watch.harness);
    const asked = await collect(watch, payloads, workspace, findings);
    for (const payload of payloads) {
      const problems = findings.of(payload.id);
      tally.record(problems.length === 0 ? undefined : `#${payload.id} ${payload.name}: ${problems.join('; ')}`);
    }
    for (const problem of findings.of(0)) tally.fail(`payloads #${payloads[0]?.id}-#${payloads.at(-1)?.id}: ${problem}`);
    return { links, asked };
  } catch (error) {
    for (const payload of payloads) tally.record(`#${payload.id} ${payload.name}: the page did not get through it (${errorText(error)})`);
    return { links: 0, asked: 0 };
  } finally {
    await watch.harness.close();
  }
}

/**
 * The checks must see what they look for: markup planted past the sanitizer (straight into the
 * DOM) has to show up, or a clean result would mean nothing.
 */
async function checkTheChecks(browser: WorkbenchBrowser, workspace: LinkWorkspace, tally: Tally): Promise<void> {
  const watch = await watchPage(browser);
  const findings = new Findings();
  const planted: HostilePayload = { id: 999_999, name: 'planted past the sanitizer', text: 'planted' };
  try {
    await streamPayloads(watch.harness, [planted]);
    await watch.harness.page.locator('[data-entry-id="m999999"]').evaluate((node, remote) => {
      node.insertAdjacentHTML('beforeend', `<img src=x onerror="window.__pwned=[999999]"><img src="${remote}"><a href="javascript:window.__pwned=[999999]">planted</a>`);
    }, `https://${REMOTE_HOST}/p999999`);
    await clickEveryLink(watch.harness);
    await collect(watch, [planted], workspace, findings);
  } finally {
    await watch.harness.close();
  }
  const seen = findings.of(planted.id);
  if (!seen.some((problem) => problem.startsWith('the sanitizer let through'))) tally.fail('the checks did not see markup planted past the sanitizer');
  if (!seen.some((problem) => problem.startsWith('the CSP had to stop') || problem.startsWith('a request left'))) tally.fail('the checks did not see a planted remote image or inline handler');
  tally.note(`the checks see markup planted past the sanitizer (${seen.length} findings)`);
}

async function run(options: RowOptions, tally: Tally): Promise<void> {
  const all = hostilePayloads();
  // Quick: every sixth payload, so each kind of trick is still there.
  const payloads = options.quick ? all.filter((_, index) => index % 6 === 0) : all;
  const root = mkdtempSync(join(tmpdir(), 'tandem-stress-md-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'app.ts'), 'export const app = 1;\n');
  const workspace: LinkWorkspace = { root, folders: [root] };
  const browser = await launchBrowser({ viewport: { width: 520, height: 900 } });
  let links = 0;
  let asked = 0;
  try {
    await checkTheChecks(browser, workspace, tally);
    for (let start = 0; start < payloads.length && !stopped(options); start += PER_PAGE) {
      const page = payloads.slice(start, start + PER_PAGE);
      options.progress(`payloads ${start + 1}-${start + page.length} of ${payloads.length}`);
      const counts = await runPage(browser, page, workspace, tally);
      links += counts.links;
      asked += counts.asked;
    }
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
  tally.note(`${payloads.length} payloads (of ${all.length}), each streamed and redrawn; ${links} links clicked, ${asked} sent to the host's link policy`);
}

export const markdownRow: StressRow = { name: 'markdown', budgetSeconds: { quick: 60, full: 240 }, minimums: { quick: { [CASES]: 30 }, full: { [CASES]: 100 } }, run };
