// Playwright helpers that drive the code-server workbench in Debian's Chromium.
// Never `npx playwright install`: it downloads a browser; /usr/bin/chromium comes from apt.
import { mkdirSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { chromium, type BrowserContext, type Frame, type Locator, type Page } from "playwright-core";
import { REPO_ROOT } from "./code-server";

export const CHROMIUM = "/usr/bin/chromium";
export const RESULTS_DIR = join(REPO_ROOT, "test-results");

// Offline machine: no QUIC, sync, component updates or other background fetches to wait on.
const CHROMIUM_ARGS = [
  "--no-sandbox", // running as root
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface WorkbenchBrowser {
  context: BrowserContext;
  userDataDir: string;
  /** Closes the browser and removes its profile dir. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  headless?: boolean;
  viewport?: { width: number; height: number };
  timeoutMs?: number;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<WorkbenchBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found; run: bash scripts/install-code-server.sh --with-browser`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), "tandem-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: options.headless ?? true,
      viewport: options.viewport ?? { width: 1400, height: 900 },
      timeout: options.timeoutMs ?? 30_000,
      // readEditorText copies through the clipboard; 127.0.0.1 is a secure context.
      permissions: ["clipboard-read", "clipboard-write"],
    });
    return {
      context,
      userDataDir,
      close: async () => {
        await context.close().catch(() => undefined);
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Opens the workbench URL and waits (bounded) until the workbench and its status bar exist. */
export async function openWorkbench(browser: WorkbenchBrowser, url: string, timeoutMs = 60_000): Promise<Page> {
  // A persistent context starts with one blank tab; reuse it rather than leaving it around.
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.goto(url, { timeout: timeoutMs, waitUntil: "domcontentloaded" });
  try {
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: timeoutMs });
    // The status bar is rendered once the workbench has restored its parts.
    await page.locator(".monaco-workbench .part.statusbar").waitFor({ state: "visible", timeout: timeoutMs });
  } catch (error) {
    throw new Error(`the workbench (.monaco-workbench) did not appear at ${url} within ${timeoutMs} ms`, { cause: error });
  }
  return page;
}

const quickInput = (page: Page): Locator => page.locator(".quick-input-widget");

/** Shows the quick input (F1, falling back to Control+Shift+P) and returns its text box. */
async function openQuickInput(page: Page, timeoutMs: number): Promise<Locator> {
  const box = quickInput(page).locator(".quick-input-box input");
  // Escape closes any open quick input or menu; the palette toggles otherwise.
  await page.keyboard.press("Escape");
  const deadline = Date.now() + timeoutMs;
  for (const key of ["F1", "Control+Shift+P"]) {
    await page.keyboard.press(key);
    const wait = Math.max(1_000, Math.min(5_000, deadline - Date.now()));
    if (await box.waitFor({ state: "visible", timeout: wait }).then(() => true, () => false)) return box;
  }
  // Focus may sit inside a webview iframe that swallows keys; click the workbench and retry.
  await page.locator(".monaco-workbench .part.statusbar").click({ position: { x: 2, y: 2 }, timeout: 5_000 });
  await page.keyboard.press("F1");
  try {
    await box.waitFor({ state: "visible", timeout: Math.max(1_000, deadline - Date.now()) });
  } catch {
    throw new Error(`the command palette (.quick-input-widget) did not open within ${timeoutMs} ms`);
  }
  return box;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Types `value` into the quick input and accepts the row whose label matches `label`.
 * The list filters asynchronously and shows recently used entries first, so this waits for a
 * matching row instead of pressing Enter on whatever is first. The palette also computes its
 * list once per opening: commands that extensions register after it opened (the extension
 * host starts after the workbench renders) only show after reopening, so each attempt reopens.
 */
async function pickRow(page: Page, value: string, label: RegExp, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const row = quickInput(page)
    .locator(".monaco-list-row")
    .filter({ has: page.locator(".label-name", { hasText: label }) })
    .first();
  let shown: string[] = [];
  for (let attempt = 1; attempt <= 20 && Date.now() < deadline; attempt++) {
    const box = await openQuickInput(page, Math.max(1_000, Math.min(10_000, deadline - Date.now())));
    await box.fill(value);
    const wait = Math.max(500, Math.min(3_000 * attempt, deadline - Date.now()));
    if (await row.waitFor({ state: "visible", timeout: wait }).then(() => true, () => false)) {
      await row.click({ timeout: 5_000 });
      await quickInput(page).waitFor({ state: "hidden", timeout: 5_000 });
      return;
    }
    shown = await quickInput(page).locator(".monaco-list-row .label-name").allInnerTexts().catch(() => []);
    await page.keyboard.press("Escape");
  }
  throw new Error(`${what}: no quick-input row matched ${label} within ${timeoutMs} ms; rows last shown: ${JSON.stringify(shown)}`);
}

/** Runs a command by its title as shown in the palette ("Category: Title" also matches). */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const label = new RegExp(`^(?:.+: )?${escapeRegExp(title)}$`);
  await pickRow(page, `>${title}`, label, `command "${title}"`, timeoutMs);
}

/** Opens a workspace file by its path relative to the folder, via Quick Open. */
export async function openFile(page: Page, relPath: string, timeoutMs = 30_000): Promise<void> {
  const name = basename(relPath);
  await pickRow(page, relPath, new RegExp(`^${escapeRegExp(name)}$`), `open "${relPath}"`, timeoutMs);
  // The file is open when the active editor group's active tab carries its name.
  const tab = page.locator(".editor-group-container.active .tab.active", { hasText: name });
  try {
    await tab.waitFor({ state: "visible", timeout: timeoutMs });
  } catch {
    throw new Error(`no active editor tab for ${relPath} within ${timeoutMs} ms`);
  }
}

/**
 * The full text of the active text editor. Monaco renders only visible lines, so this selects
 * all and copies through the clipboard; it leaves the cursor at the start of the document.
 */
export async function readEditorText(page: Page, timeoutMs = 10_000): Promise<string> {
  const editor = page.locator(".editor-group-container.active .monaco-editor .view-lines").first();
  try {
    await editor.click({ timeout: timeoutMs });
  } catch {
    throw new Error(`no active text editor to read within ${timeoutMs} ms`);
  }
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Control+C");
  const deadline = Date.now() + timeoutMs;
  let text = "";
  // The copy lands asynchronously; an empty document reads as "" after the bound.
  while (Date.now() < deadline) {
    text = await page.evaluate(() => navigator.clipboard.readText());
    if (text !== "") break;
    await page.waitForTimeout(100);
  }
  await page.keyboard.press("Control+Home");
  return text;
}

/**
 * The frame of a webview whose document contains `selector`. Webview views are nested iframes
 * (host frame -> content frame), so this walks every frame of the page until one matches.
 */
export async function webviewFrame(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      // A frame can navigate or detach between listing and querying: treat that as "not yet".
      const found = await frame.$(selector).then((h) => h !== null, () => false);
      if (found) return frame;
    }
    await page.waitForTimeout(250);
  }
  const urls = page.frames().map((f) => f.url().slice(0, 120));
  throw new Error(`no webview frame contained ${selector} within ${timeoutMs} ms; frames: ${JSON.stringify(urls)}`);
}

/** Saves a PNG under <repo>/test-results/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(RESULTS_DIR, `${name.replace(/[^\w.-]+/g, "_")}.png`);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, timeout: 15_000 });
  return file;
}
