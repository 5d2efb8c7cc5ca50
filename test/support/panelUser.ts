// Acting in the Tandem panel of a real workbench as a user does (the message box, the agent
// picker, the palette), and reading back what a user sees: turn ends, toasts, processes, output.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

/** The id of the agent the panel's picker shows. */
export const pickedAgent = (panel: Frame): Promise<string> =>
  panel.locator('#agent-picker').evaluate((node) => (node as HTMLElement & { value: string }).value);

/** Waits (bounded) until the picker shows `agentId`: the select takes its options a moment after the panel renders. */
export async function waitForPickedAgent(panel: Frame, agentId: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let shown = await pickedAgent(panel);
  while (shown !== agentId && Date.now() < deadline) {
    await panel.waitForTimeout(100);
    shown = await pickedAgent(panel);
  }
  if (shown !== agentId) throw new Error(`the agent picker shows "${shown}", not "${agentId}"`);
}

/** Types `text` into the message box and presses Enter. */
export async function send(panel: Frame, text: string): Promise<void> {
  const input = panel.locator('#composer-input textarea');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/** What the message box holds now. */
export const composerText = (panel: Frame): Promise<string> => panel.locator('#composer-input textarea').inputValue();

/** The stop reason of the `count`-th turn-ended marker, waiting until it exists. */
export async function turnEnd(panel: Frame, count: number, timeoutMs = 60_000): Promise<string | null> {
  const marker = panel.locator('.turn-ended').nth(count - 1);
  await marker.waitFor({ state: 'attached', timeout: timeoutMs });
  return marker.getAttribute('data-stop-reason');
}

/** Picks an agent in the panel's picker and waits until its tab is active and the phase is reached. */
export async function pickAgent(panel: Frame, label: string, phase = 'ready'): Promise<void> {
  await panel.locator('#agent-picker').click();
  await panel.locator('#agent-picker li.option', { hasText: label }).click();
  await panel.locator('#tabs-bar .tab.active', { hasText: label }).waitFor({ timeout: 30_000 });
  await panel.locator(`.connection-status.phase-${phase}`).waitFor({ timeout: 60_000 });
}

/** The view's "+" (New Conversation in its title bar): the one way to a new conversation the panel shows. */
export const newConversationButton = (page: Page) => page.locator('.monaco-workbench .title-actions .action-label[aria-label^="New Conversation"]');

/** Opens a new conversation tab with the view's + button and waits until it is the active one. */
export async function openNewTab(panel: Frame): Promise<void> {
  const tabs = panel.locator('#tabs-bar .tab');
  const before = await tabs.count();
  await newConversationButton(panel.page()).click();
  await tabs.nth(before).waitFor({ timeout: 15_000 });
  await panel.locator('#tabs-bar .tab.active', { hasText: 'New conversation' }).waitFor({ timeout: 15_000 });
}

/**
 * A new conversation in front and every other tab closed: tests that share a workbench with
 * earlier ones start from one empty thread, as in a workbench of their own.
 */
export async function freshConversation(panel: Frame): Promise<void> {
  await openNewTab(panel);
  const tabs = panel.locator('#tabs-bar .tab');
  for (let open = await tabs.count(); open > 1; open--) {
    // A tab shows its close button under the mouse, as a user reaches it.
    const other = panel.locator('#tabs-bar .tab:not(.active)').first();
    await other.hover();
    await other.locator('.tab-close').click();
    await tabs.nth(open - 1).waitFor({ state: 'detached', timeout: 15_000 });
  }
}

/**
 * Opens the palette, types the command's title and accepts its row, without waiting for the
 * palette to close: many commands open a quick pick or a dialog of their own.
 */
export async function startFromPalette(page: Page, title: string): Promise<void> {
  const box = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^(?:Tandem: )?${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
  // The palette lists commands once per opening; those registered later show after reopening.
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await box.waitFor({ timeout: 10_000 });
    await box.fill(`>${title}`);
    if (await row.waitFor({ timeout: 3_000 * attempt }).then(() => true, () => false)) {
      await row.click();
      return;
    }
  }
  throw new Error(`the palette never listed "${title}"`);
}

/** Closes the modal editor VS Code opens some editors in (settings.json, workspace trust), if one is open. */
export async function closeModalEditor(page: Page): Promise<void> {
  const modal = page.locator('.monaco-modal-editor-block');
  if ((await modal.count()) === 0) return;
  await page.keyboard.press('Escape');
  if (await modal.waitFor({ state: 'detached', timeout: 3_000 }).then(() => true, () => false)) return;
  await modal.locator('.modal-editor-header .codicon-close, .modal-editor-header .codicon-close-dirty').first().click({ timeout: 5_000 });
  await modal.waitFor({ state: 'detached', timeout: 10_000 });
}

/** The user's settings.json as saved on the server's disk, or null while it is being written. */
function savedSettings(file: string): string | null {
  try {
    return JSON.stringify(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

/**
 * Changes the user's settings the way a user does: settings.json opened from the palette, its
 * text replaced, saved (a write behind the editor's back is not picked up). Resolves once the
 * file on the server's disk holds the changed settings and the editor is closed.
 */
export async function saveUserSettings(page: Page, userDataDir: string, change: (settings: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const file = join(userDataDir, 'User', 'settings.json');
  const next = change(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  await startFromPalette(page, 'Preferences: Open User Settings (JSON)');
  // VS Code opens it in a modal editor (or a tab where modal editors are off), over any editor already open: the one named settings.json.
  const editor = page.locator('.editor-instance[aria-label^="settings.json,"] .monaco-editor .view-lines').first();
  await editor.waitFor({ timeout: 15_000 });
  await editor.click();
  await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify(next, null, 2));
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.keyboard.press('Control+S');
  for (let i = 0; i < 100 && savedSettings(file) !== JSON.stringify(next); i++) await page.waitForTimeout(100);
  if (savedSettings(file) !== JSON.stringify(next)) throw new Error(`settings.json was not saved with the change: ${readFileSync(file, 'utf8')}`);
  // The editor can count itself unsaved after the file holds the text (seen with autoSave off);
  // closed then, it asks to save, and it holds exactly the text just saved: the answer is Save.
  await page.keyboard.press('Escape');
  const question = page.locator('.monaco-dialog-box', { hasText: 'Do you want to save the changes you made to settings.json?' });
  if (await question.waitFor({ timeout: 1_000 }).then(() => true, () => false)) await question.getByRole('button', { name: 'Save', exact: true }).click();
  await closeModalEditor(page);
}

/** After a test: whatever it left open over the window (a dialog, a modal editor, a picker) is closed, so the next test starts clean. */
export async function dismissOverlays(page: Page): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  if (await dialog.isVisible().catch(() => false)) {
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
  await closeModalEditor(page).catch(() => undefined);
  if (await page.locator('.quick-input-widget').isVisible().catch(() => false)) await page.keyboard.press('Escape');
}

export interface Toast {
  severity: 'error' | 'warning' | 'info';
  text: string;
}

/** The notification toasts the workbench shows now, with their severity icon. */
export function toasts(page: Page): Promise<Toast[]> {
  return page.locator('.notifications-toasts .notification-toast').evaluateAll((nodes) => nodes.map((node) => {
    const icon = node.querySelector('.notification-list-item-icon');
    const severity = icon?.classList.contains('codicon-error') ? 'error' : icon?.classList.contains('codicon-warning') ? 'warning' : 'info';
    return { severity, text: (node.querySelector('.notification-list-item-message') as HTMLElement | null)?.innerText ?? '' } as const;
  }));
}

/** Closes every toast (so the next command's can be told apart). */
export async function clearToasts(page: Page): Promise<void> {
  const close = page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .notification-toast .codicon-close');
  for (let i = 0; i < 20 && (await close.count()) > 0; i++) await close.first().click({ timeout: 2_000 }).catch(() => undefined);
}

/** Live processes with a command-line argument that `matches` (read from /proc). */
export function processesWithArgument(matches: string | ((arg: string) => boolean)): number[] {
  const test = typeof matches === 'string' ? (arg: string) => arg === matches : matches;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some(test)) pids.push(Number(entry));
    } catch {
      // It ended between the listing and the read.
    }
  }
  return pids;
}

/** Every file under `dir` (bounded in count): what the editor wrote, to read its logs or look for a secret in them. */
export function filesUnder(dir: string, limit = 5_000): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (found.length >= limit) return;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/**
 * The regular files under `dir` whose bytes hold `text`, as UTF-8 or as UTF-16 (how Chromium and
 * some databases keep strings): binary files too, read as bytes, never decoded.
 */
export function filesHolding(dir: string, text: string): string[] {
  const needles = [Buffer.from(text, 'utf8'), Buffer.from(text, 'utf16le')];
  return filesUnder(dir).filter((path) => {
    try {
      if (!statSync(path).isFile()) return false;
      const bytes = readFileSync(path);
      return needles.some((needle) => bytes.includes(needle));
    } catch {
      return false; // Gone since it was listed (a log rotated, a lock released).
    }
  });
}

/** What Tandem's log channel holds so far, read from the editor's log files on the server's disk ('' before it has any). */
export function tandemLogText(userDataDir: string): string {
  try {
    return filesUnder(join(userDataDir, 'logs')).filter((path) => /(^|[-.])Tandem\.log$/.test(basename(path))).map((path) => readFileSync(path, 'utf8')).join('\n');
  } catch {
    return ''; // A log came or went while it was read: the next look sees it.
  }
}

/**
 * The whole text of the output channel `name` once the panel area shows it: select all and copy,
 * since Monaco renders only the visible lines.
 */
export async function readOutputChannel(page: Page, name: string, timeoutMs = 15_000): Promise<string> {
  const picker = page.locator('.part.panel select.monaco-select-box').first();
  const deadline = Date.now() + timeoutMs;
  let shown: string | undefined;
  while (Date.now() < deadline) {
    shown = await picker.evaluate((node) => {
      const select = node as HTMLSelectElement;
      return select.options[select.selectedIndex]?.text;
    }).catch(() => undefined);
    if (shown === name) break;
    await page.waitForTimeout(100);
  }
  if (shown !== name) throw new Error(`the output view shows "${shown ?? 'nothing'}", not "${name}"`);
  // The channel's editor, not the filter box above it; its top left corner is always on screen.
  const editor = page.locator('.part.panel .output-view .monaco-editor .overflow-guard, .part.panel .pane-body .monaco-editor .overflow-guard').first();
  await editor.click({ position: { x: 60, y: 12 }, timeout: 10_000 });
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+C');
  let text = '';
  for (let i = 0; i < 50 && text === ''; i++) {
    text = await page.evaluate(() => navigator.clipboard.readText());
    if (text === '') await page.waitForTimeout(100);
  }
  return text;
}
