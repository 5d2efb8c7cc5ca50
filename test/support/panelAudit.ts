// Checks of the panel as shipped, in the real editor: axe-core inside the webview's own frame
// (its CSP untouched), the workbench's colour themes, and a walk of the panel by keyboard.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';
import type { CodeServer } from './code-server';
import { runCommand } from './workbench';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The violations a user would feel: axe's "serious" and "critical" impacts. */
export interface AxeReport {
  blocking: Result[];
  /** Every rule that failed, with its impact and node count, for the test's log. */
  summary: string[];
}

/**
 * Runs axe-core in the panel's frame. Playwright evaluates through the DevTools protocol, which a
 * document's CSP does not govern, so the panel keeps its shipped CSP (no bypass, no injected tag):
 * what axe sees is what the user gets, theme colours from the workbench included.
 */
export async function auditPanel(frame: Frame): Promise<AxeReport> {
  const loaded = await frame.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await frame.evaluate(AXE_SOURCE);
  const results = await frame.evaluate(() => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe
    .run(document, { resultTypes: ['violations'] }));
  return {
    blocking: results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
    summary: results.violations.map((violation) => `${violation.impact ?? 'unknown'} ${violation.id} (${violation.nodes.length}): ${violation.help}`),
  };
}

/** A violation in words: the rule, and each offending element with axe's own explanation. */
export function describeViolations(violations: readonly Result[]): string {
  return violations.map((violation) => `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes
    .map((node) => `  ${node.target.join(' ')}\n    ${node.failureSummary?.replace(/\n/g, '\n    ') ?? ''}`).join('\n')}`).join('\n');
}

/** The editor's own default themes (ids as settings.json names them in VS Code 1.139). */
export const THEMES = [
  { name: 'light', setting: 'Light 2026', workbenchClass: 'vs', webviewKind: 'vscode-light' },
  { name: 'dark', setting: 'Dark 2026', workbenchClass: 'vs-dark', webviewKind: 'vscode-dark' },
  { name: 'high-contrast', setting: 'Default High Contrast', workbenchClass: 'hc-black', webviewKind: 'vscode-high-contrast' },
  { name: 'high-contrast-light', setting: 'Default High Contrast Light', workbenchClass: 'hc-light', webviewKind: 'vscode-high-contrast-light' },
] as const;

export type Theme = (typeof THEMES)[number];

/**
 * Switches the colour theme the way a user edits settings.json: in the editor, saved. (The
 * palette's theme picker also searches the marketplace and fails offline; a write behind the
 * editor's back is not picked up.) Resolves once the panel (`panel`, its webview frame) has the theme's colours.
 */
export async function useTheme(server: CodeServer, page: Page, panel: Frame, theme: Theme): Promise<void> {
  // The webview host sets the theme's kind on the panel's body in the same step as its colour variables.
  const painted = panel.locator(`body[data-vscode-theme-kind="${theme.webviewKind}"]`);
  if (await page.locator(`.monaco-workbench.${theme.workbenchClass}`).count() > 0) return painted.waitFor({ state: 'attached', timeout: 10_000 });
  const settings = JSON.parse(readFileSync(join(server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  // Away from the panel first: the palette helper's Escape would otherwise stop the agent's turn.
  await page.locator('.part.editor').click();
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  // It opens focused, over the workbench.
  await page.locator('.monaco-editor .view-lines', { hasText: 'workbench.startupEditor' }).first().waitFor({ timeout: 15_000 });
  await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify({ ...settings, 'workbench.colorTheme': theme.setting }, null, 2));
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.keyboard.press('Control+S');
  await page.locator(`.monaco-workbench.${theme.workbenchClass}`).waitFor({ timeout: 20_000 });
  await runCommand(page, 'View: Close Editor');
  // The webview gets the theme's variables a moment after the workbench repaints.
  await painted.waitFor({ state: 'attached', timeout: 10_000 });
}

/** What has the keyboard focus in the panel, in words (the shadow host for the panel's web components). */
export function focusedControl(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const node = document.activeElement as HTMLElement | null;
    if (!node || node === document.body) return 'nothing';
    const name = node.getAttribute('aria-label') ?? node.getAttribute('title') ?? node.textContent?.trim().slice(0, 40) ?? '';
    return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.className ? `.${String(node.className).split(' ').join('.')}` : ''} "${name}"`;
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused control matches `selector`, bounded; fails with
 * the controls it passed on the way when it never gets there.
 */
export async function tabTo(page: Page, frame: Frame, selector: string, options: { back?: boolean; max?: number } = {}): Promise<number> {
  const passed: string[] = [];
  const max = options.max ?? 60;
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    if (await frame.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return presses;
    passed.push(await focusedControl(frame));
  }
  throw new Error(`${selector} was not reached with ${max} presses of ${options.back ? 'Shift+Tab' : 'Tab'}; focus went through:\n${passed.join('\n')}`);
}

/**
 * Every visible control of the panel that Tab does not reach, walking from the panel's top until
 * the keyboard leaves it. The panel records what took focus; controls a roving tab stop hands on
 * by arrows (the other conversations) are left out, the one stop of their group is not.
 */
export async function unreachableControls(page: Page, frame: Frame, max = 300): Promise<string[]> {
  await frame.evaluate(() => {
    // Where the walk starts counts as reached.
    const seen = new Set<Element>(document.activeElement ? [document.activeElement] : []);
    (window as unknown as { __focused: Set<Element> }).__focused = seen;
    document.addEventListener('focusin', (event) => seen.add(event.target as Element), true);
  });
  const inPanel = () => frame.evaluate(() => document.hasFocus() && document.activeElement !== null && document.activeElement !== document.body);
  let entered = false;
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press('Tab');
    const inside = await inPanel();
    if (entered && !inside) break;
    entered ||= inside;
  }
  return frame.evaluate(() => {
    const seen = (window as unknown as { __focused: Set<Element> }).__focused;
    const controls = document.querySelectorAll<HTMLElement>('a[href], button, select, textarea, input, summary, vscode-button, vscode-textarea, vscode-single-select, [tabindex="0"]');
    return [...controls]
      // checkVisibility, not layout boxes: the content of a closed <details> keeps its boxes (content-visibility: hidden).
      .filter((node) => node.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: false }) && !node.closest('[aria-hidden="true"]'))
      .filter((node) => !node.hasAttribute('disabled') && !seen.has(node) && ![...seen].some((other) => node.contains(other)))
      .map((node) => `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''} "${(node.getAttribute('aria-label') ?? node.getAttribute('title') ?? node.textContent ?? '').trim().slice(0, 50)}"`);
  });
}
