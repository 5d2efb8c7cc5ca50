// The panel's code that loads on demand (xterm, most highlight.js languages), in Chromium with the
// extension's CSP: each chunk is fetched only when first needed, and what the panel shows while it
// is on its way (terminal output, code blocks) is all there once it has come. Each chunk's
// response is held back by the test, so "before it came" is a state the test controls.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TerminalSnapshotView } from '../../src/terminals/terminalStates';
import type { PanelHarness } from '../support/panelHarness';
import { panelState, toolEntry } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();

/** Requests for the chunk matching `file`, answered only once `release` is called. */
async function holdChunk(page: Page, file: RegExp): Promise<{ requests: () => number; release: () => void }> {
  let requests = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => file.test(url.pathname), async (route) => {
    requests += 1;
    await released;
    await route.fallback();
  });
  return { requests: () => requests, release };
}

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** The script files the panel has fetched so far, by name. */
const fetchedScripts = (harness: PanelHarness) => harness.page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.endsWith('.js')));

function terminal(terminalId: string, toolCallId: string, output: string): TerminalSnapshotView {
  return { terminalId, toolCallId, origin: 'client', command: `run ${terminalId}`, cwd: null, running: true, elapsedMs: 0, exitCode: null, signal: null, truncated: false, released: false, output };
}

const terminalCard = (id: string, terminalId: string) => toolEntry(id, { title: `Run ${terminalId}`, toolKind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] });

describe('chunks the panel loads on demand', () => {
  test('xterm is fetched when the first terminal card shows; output that came meanwhile is all shown, in order', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    const xterm = await holdChunk(harness.page, /\/chunks\/xterm-[\w-]+\.js$/);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    await harness.page.locator('.user-message').waitFor();
    assert.equal(xterm.requests(), 0, 'a panel without terminals does not fetch xterm');
    assert.ok((await fetchedScripts(harness)).every((name) => !name.includes('/chunks/xterm-')));

    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }, terminalCard('t1', 'term-1')], { terminals: [terminal('term-1', 'call-t1', 'first line\r\n')] }) });
    await until('the terminal card asks for xterm', () => xterm.requests() === 1);
    await harness.post({ type: 'terminalDeltas', changed: [], output: [{ terminalId: 'term-1', data: 'second line\r\n', skipped: 0 }, { terminalId: 'term-1', data: 'third line\r\n', skipped: 0 }] });
    const pane = harness.page.locator('.terminal-pane[data-terminal-id="term-1"]');
    await pane.waitFor();
    assert.equal(await pane.locator('.xterm').count(), 0, 'no terminal until xterm has come');

    xterm.release();
    const rows = pane.locator('.xterm-rows');
    await rows.filter({ hasText: 'third line' }).waitFor({ timeout: 10_000 });
    assert.match((await rows.innerText()).replace(/\u00a0/g, ' '), /first line\s+second line\s+third line/);

    // A second card starts from the xterm already loaded.
    await harness.post({ type: 'snapshot', state: panelState([terminalCard('t1', 'term-1'), terminalCard('t2', 'term-2')], { terminals: [terminal('term-1', 'call-t1', 'one\r\n'), terminal('term-2', 'call-t2', 'two\r\n')] }) });
    await harness.page.locator('.terminal-pane[data-terminal-id="term-2"] .xterm-rows', { hasText: 'two' }).waitFor({ timeout: 10_000 });
    assert.equal(xterm.requests(), 1, 'xterm is fetched once');
    await screenshot(harness.page, 'chunks-terminal');
    assert.deepEqual(harness.pageErrors, []);
    assert.deepEqual(harness.blockedRequests, []);
  });

  test('a code block in a language not loaded yet shows plain, then is highlighted in place when the language comes', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    const rust = await holdChunk(harness.page, /\/chunks\/rust-[\w-]+\.js$/);
    const code = 'fn main() {\n    let answer = 42;\n}';
    const text = `Rust:\n\n\`\`\`rust\n${code}\n\`\`\`\n\nAnd TypeScript:\n\n\`\`\`ts\nconst answer = 42;\n\`\`\`\n\nAfter the blocks.`;
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'agentMessage', id: 'm1', text }]) });
    const block = harness.page.locator('.agent-message pre.code-block[data-language="rust"]');
    await block.waitFor();
    await until('the block asks for its language', () => rust.requests() === 1);
    assert.equal(await block.locator('code span').count(), 0, 'plain while the language is on its way');
    assert.equal(await block.locator('code').textContent(), `${code}\n`);
    assert.equal(await harness.page.locator('pre.code-block[data-language="ts"] code span.hljs-keyword', { hasText: 'const' }).count(), 1, 'a language in the bundle is highlighted at once');
    await block.evaluate((node) => ((node as HTMLElement & { drawnBefore?: boolean }).drawnBefore = true));

    rust.release();
    await block.locator('code span.hljs-keyword', { hasText: 'fn' }).waitFor({ timeout: 10_000 });
    assert.equal(await block.evaluate((node) => (node as HTMLElement & { drawnBefore?: boolean }).drawnBefore), true, 'the same block, highlighted in place');
    assert.equal(await block.locator('code').textContent(), `${code}\n`, 'the code is unchanged');
    assert.equal(await block.locator('code span.hljs-number').textContent(), '42');
    assert.equal(await harness.page.locator('.agent-message .code-frame', { has: harness.page.locator('pre.code-block[data-language="rust"]') }).locator('.copy-code').count(), 1, 'its copy button stays');
    assert.equal(await harness.page.locator('pre.code-waiting').count(), 0);
    assert.match(await harness.page.locator('.agent-message').innerText(), /After the blocks\.$/);

    // Later blocks in that language (by an alias too) are highlighted as they are drawn.
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'm2', text: '```rs\nlet more = 1;\n```' } }] });
    await harness.page.locator('pre.code-block[data-language="rs"] code span.hljs-keyword', { hasText: 'let' }).waitFor({ timeout: 10_000 });
    assert.equal(rust.requests(), 1, 'the language is fetched once');
    await screenshot(harness.page, 'chunks-code-blocks');
    assert.deepEqual(harness.pageErrors, []);
    assert.deepEqual(harness.blockedRequests, []);
  });
});
