// Every contributed command runs from the palette without an error, and those that need a state
// say which. The demo agent's edits are left pending first, so the review commands are offered.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { localizedManifest } from '../../support/manifest';
import { clearToasts, dismissOverlays, pickAgent, startFromPalette, type Toast } from '../../support/panelUser';
import { screenshot } from '../../support/workbench';
import { firstSign, nowRunning, shownToasts, watchWorkbench, workbenchView } from './paletteWatch';
import { sendAndWait, type Workbench } from './shared';

/** How long a command that shows nothing gets before the next one runs (see runAndNote). */
const QUIET_BOUND_MS = 1_500;
/** How long what a command shows gets to be joined by what comes right after it (the fidelity report's toast after its editor). */
const SETTLE_MS = 300;

/** The palette rows a user can run: package.json's commands minus those its menus hide for good. */
function paletteCommands(): { command: string; title: string }[] {
  const manifest = localizedManifest<{
    contributes: { commands: { command: string; title: string }[]; menus: { commandPalette?: { command: string; when?: string }[] } };
  }>();
  const hidden = new Set((manifest.contributes.menus.commandPalette ?? []).filter((entry) => entry.when === 'false').map((entry) => entry.command));
  return manifest.contributes.commands.filter((entry) => !hidden.has(entry.command));
}

/**
 * Runs the command from the palette and notes what it opened (a question, a modal editor, a
 * picker, a channel, an editor) before dismissing it as a user would. The wait ends at the first
 * thing it shows; only a command that shows nothing takes the whole QUIET_BOUND_MS. Some show
 * nothing by right: a new session or a restart appear in the panel, a review step moves within an
 * editor already open. Their work may still be under way when the bound is up, which is why it is
 * not shorter: the next command starts on a settled workbench. A toast
 * that comes later than any wait is still seen, since every toast is recorded as it appears (see
 * paletteWatch.ts), and counted for the command running then.
 */
async function runAndNote(page: Page, command: string, title: string): Promise<Toast[]> {
  const before = await workbenchView(page);
  await nowRunning(page, command);
  await startFromPalette(page, title);
  const sign = await firstSign(page, before, QUIET_BOUND_MS);
  if (sign !== null) await page.waitForTimeout(SETTLE_MS);
  const dialog = page.locator('.monaco-dialog-box');
  const asked = (await dialog.isVisible()) ? [{ severity: 'info' as const, text: `dialog: ${await dialog.innerText()}` }] : [];
  const opened = (await page.locator('.monaco-modal-editor-block').count()) > 0 ? [{ severity: 'info' as const, text: 'opened a modal editor' }] : [];
  const after = await workbenchView(page);
  const shown = (['output', 'editor'] as const).filter((part) => after[part] !== before[part]).map((part) => ({ severity: 'info' as const, text: `${part}: ${after[part]}` }));
  const picked = sign?.startsWith('picker: ') ? [{ severity: 'info' as const, text: sign }] : [];
  await dismissOverlays(page);
  // A picker fades out after Escape; the palette opened meanwhile would be taken over.
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 });
  await clearToasts(page);
  return [...asked, ...opened, ...shown, ...picked];
}

export function describePalette(workbench: Workbench): void {
  describe('the command palette in code-server', () => {
    test('every contributed command runs from the palette without an error; those that need a state say so', { timeout: 300_000 }, async () => {
      const { page, panel } = workbench();
      // Edits pending from the demo agent, so the review commands are offered (the palette hides them otherwise).
      await pickAgent(panel, 'Demo agent (offline)');
      // The space closes the command completion, which would take the Enter otherwise.
      assert.equal(await sendAndWait(panel, '/edit ', 120_000), 'end_turn');
      await panel.locator('#changes-bar .changes-summary', { hasText: /files? changed/ }).waitFor({ timeout: 15_000 });
      const order = ['tandem.nextChange', 'tandem.keepHunk', 'tandem.previousChange', 'tandem.undoHunk', 'tandem.redoUndo', 'tandem.reviewChanges', 'tandem.undoAllChanges', 'tandem.keepAllChanges'];
      const commands = paletteCommands().sort((a, b) => order.indexOf(a.command) - order.indexOf(b.command));
      const said: Record<string, Toast[]> = {};
      await clearToasts(page);
      await watchWorkbench(page);
      for (const { command, title } of commands) said[command] = await runAndNote(page, command, title);
      // A toast the last command shows late gets the time any quiet command gets.
      await page.waitForTimeout(QUIET_BOUND_MS);
      for (const { command, ...toast } of await shownToasts(page)) (said[command] ??= []).push(toast);
      const text = (command: string) => (said[command] ?? []).map((toast) => toast.text).join('\n');
      // Those that need a state say which, and those that show something show it.
      const expected: Record<string, RegExp> = {
        'tandem.commentHunk': /^There is no pending agent change here to comment on\.$/m,
        'tandem.signOut': /^dialog: [\s\S]*Sign out of Demo agent \(offline\)\?/,
        'tandem.showFidelityReport': /^Demo agent \(offline\) never asked\.$/m,
        'tandem.showLog': /^output: Tandem$/m,
        'tandem.showTraffic': /^output: Tandem Traffic$/m,
      };
      for (const [command, shows] of Object.entries(expected)) assert.match(text(command), shows, `${command}: ${JSON.stringify(said[command])}`);
      // An error is a red toast, or the workbench's own dialog for a command that threw.
      const errors = Object.entries(said).filter(([, shown]) => shown.some((toast) => toast.severity === 'error' || /resulted in an error/.test(toast.text)));
      assert.deepEqual(errors, [], 'no command showed an error');
      await screenshot(page, 'palette-commands-done');
    });
  });
}
