// The panel's on-demand chunks in a real VS Code: code-server serves them through the webview's
// resource URIs under the panel's real CSP, a terminal card loads xterm and shows a command's
// output, and a code block in a language outside the panel's bundle gets highlighted, with no
// CSP violation anywhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ConsoleMessage, Frame, Page } from 'playwright-core';
import { send, turnEnd } from '../../support/panelUser';
import { terminalPrompt } from '../../support/scenarios/terminals';
import type { TandemWorkbench } from '../../support/tandemWorkbench';
import { screenshot } from '../../support/workbench';

/**
 * Registers the chunk checks on the shared workbench. Register it first: a chunk stays loaded in
 * the panel's document, so its check needs a panel that has asked for none yet.
 */
export function describeLazyChunks(workbench: () => TandemWorkbench): void {
  let page: Page;
  let panel: Frame;
  /** Console errors of the workbench and its webviews that name the CSP. */
  const cspConsoleErrors: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspConsoleErrors.push(message.text());
  };

  /** Violations the panel's document reported since the listener went in. */
  const violations = () => panel.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

  /** The chunk files the panel has fetched so far. */
  const fetchedChunks = () => panel.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.includes('/chunks/')).map((name) => name.slice(name.lastIndexOf('/') + 1)));

  describe('chunks loaded on demand, in code-server', () => {
    before(async () => {
      ({ page, panel } = workbench());
      page.on('console', onConsole);
      // Before any chunk is asked for: every one loads after this.
      await panel.evaluate(() => {
        const store: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = store;
        document.addEventListener('securitypolicyviolation', (event) => store.push(`${event.violatedDirective} ${event.blockedURI}`));
      });
    });

    after(() => {
      page.off('console', onConsole);
    });

    test('a terminal card loads xterm and shows the output; a Rust block loads its language and is highlighted; no CSP violation', { timeout: 180_000 }, async () => {
      const onDemand = (chunks: string[]) => chunks.filter((name) => /^(xterm|rust)-/.test(name));
      assert.deepEqual(onDemand(await fetchedChunks()), [], 'the panel opens without xterm or Rust');

      await send(panel, terminalPrompt({ create: { command: "echo tandem-chunks; for i in 1 2 3; do echo row $i; done" }, toolCall: true, steps: ['waitOutput:row 3', 'wait'] }));
      const rows = panel.locator('.tool-card .terminal-pane .xterm-rows');
      await rows.filter({ hasText: 'row 3' }).waitFor({ timeout: 60_000 });
      assert.match((await rows.innerText()).replace(/\u00a0/g, ' '), /tandem-chunks\s+row 1\s+row 2\s+row 3/);
      assert.equal(await turnEnd(panel, 1), 'end_turn');
      assert.match(onDemand(await fetchedChunks()).join(' '), /^xterm-[\w-]+\.js$/, 'xterm came when the card showed');

      const code = 'fn main() {\n    let answer = 42;\n}';
      await send(panel, `Rust:\n\n\`\`\`rust\n${code}\n\`\`\`\n\nAfter the block.`);
      assert.equal(await turnEnd(panel, 2), 'end_turn');
      const block = panel.locator('.agent-message pre.code-block[data-language="rust"]');
      await block.locator('code span.hljs-keyword', { hasText: 'fn' }).waitFor({ timeout: 10_000 });
      assert.equal(await block.locator('code').textContent(), `${code}\n`);
      assert.equal(await block.locator('code span.hljs-number').textContent(), '42');
      assert.equal(await panel.locator('pre.code-waiting').count(), 0);
      assert.deepEqual(onDemand(await fetchedChunks()).map((name) => name.split('-')[0]).sort(), ['rust', 'xterm']);
      await block.scrollIntoViewIfNeeded();
      await screenshot(page, 'e2e-chunks');

      assert.deepEqual(await violations(), [], 'the panel reported no CSP violation');
      assert.deepEqual(cspConsoleErrors, [], 'no CSP error on the console');
    });
  });
}
