// The editor's own file dialog in a browser workbench (the simple one, with
// `files.simpleDialog.enable`), answered as a user types a path into it.
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { screenshot } from './workbench';

/** Answers the open dialog with `path`. */
export async function answerFileDialog(page: Page, path: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await page.waitForFunction(() => {
    const box = document.querySelector<HTMLInputElement>('.quick-input-widget input');
    return box !== null && box.value.startsWith('/');
  }, undefined, { timeout: 20_000 });
  // The dialog fills in its default path (and selects the name) a moment after it opens.
  await page.waitForTimeout(1500);
  await input.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(path);
  // The dialog checks the typed path before it takes Enter.
  await page.waitForTimeout(1000);
  await screenshot(page, 'e2e-file-dialog');
  await page.keyboard.press('Enter');
  // A dialog that is still open (it took the first Enter as moving into the folder) gets a second one.
  await page.waitForTimeout(1500);
  const widget = page.locator('.quick-input-widget');
  if (await widget.isVisible() && (await input.inputValue()) === path) {
    await screenshot(page, 'e2e-file-dialog-open');
    await page.keyboard.press('Enter');
  }
}

export async function waitForFile(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} was not written`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
