// What the workbench shows while palette commands run, watched from inside the page: every toast
// as it appears, kept with the command that was running then (even once it is closed), and the
// first sign that a command showed something.
import { errors, type Page } from 'playwright-core';
import type { Toast } from '../../support/panelUser';

/** The output channel the panel area shows and the active editor's tab, as the user sees them. */
export interface WorkbenchView {
  output: string;
  editor: string;
}

export interface ShownToast extends Toast {
  /** The command running when the toast appeared. */
  command: string;
}

interface PaletteWatch {
  command: string;
  toasts: ShownToast[];
  view(): WorkbenchView;
  /** What a command shows once it shows anything: a dialog, a modal editor, a picker of its own, a changed view or a toast. */
  sign(before: WorkbenchView): string | null;
}

type Watched = Window & { tandemPaletteWatch: PaletteWatch };

// Plain JavaScript run in the page: a function from this file would carry the helpers the
// TypeScript loader adds to nested functions, which the page does not have.
const INSTALL = `(() => {
  const shown = (node) => node instanceof HTMLElement && node.getClientRects().length > 0 && getComputedStyle(node).display !== 'none';
  const seen = new WeakSet();
  const state = {
    command: '',
    toasts: [],
    view() {
      const select = document.querySelector('.part.panel select.monaco-select-box');
      const tab = document.querySelector('.tabs-container .tab.active .label-name');
      return { output: (select && select.options[select.selectedIndex] && select.options[select.selectedIndex].text) || '', editor: (tab && tab.innerText) || '' };
    },
    sign(before) {
      if (shown(document.querySelector('.monaco-dialog-box'))) return 'dialog';
      if (document.querySelector('.monaco-modal-editor-block')) return 'modal editor';
      const box = document.querySelector('.quick-input-widget .quick-input-box input');
      // The palette's own box holds ">title"; a command's picker or file dialog holds anything else.
      if (shown(document.querySelector('.quick-input-widget')) && box && !box.value.startsWith('>')) return 'picker: ' + (box.placeholder || box.value);
      const now = state.view();
      if (now.output !== before.output) return 'output: ' + now.output;
      if (now.editor !== before.editor) return 'editor: ' + now.editor;
      return state.toasts.some((toast) => toast.command === state.command) ? 'toast' : null;
    },
  };
  const record = (toast) => {
    if (seen.has(toast)) return;
    seen.add(toast);
    const icon = toast.querySelector('.notification-list-item-icon');
    const severity = icon && icon.classList.contains('codicon-error') ? 'error' : icon && icon.classList.contains('codicon-warning') ? 'warning' : 'info';
    const message = toast.querySelector('.notification-list-item-message');
    state.toasts.push({ command: state.command, severity, text: message ? message.innerText : '' });
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches('.notification-toast')) record(node);
        node.querySelectorAll('.notification-toast').forEach(record);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
  window.tandemPaletteWatch = state;
})()`;

/** Starts watching the page (until it reloads). */
export async function watchWorkbench(page: Page): Promise<void> {
  await page.evaluate(INSTALL);
}

export const workbenchView = (page: Page): Promise<WorkbenchView> => page.evaluate(() => (window as unknown as Watched).tandemPaletteWatch.view());

/** From now on, the toasts that appear are `command`'s. */
export const nowRunning = (page: Page, command: string): Promise<void> => page.evaluate((name) => {
  (window as unknown as Watched).tandemPaletteWatch.command = name;
}, command);

/** The first thing the running command shows, or null when it shows nothing within `boundMs`. */
export async function firstSign(page: Page, before: WorkbenchView, boundMs: number): Promise<string | null> {
  try {
    const handle = await page.waitForFunction((view) => (window as unknown as Watched).tandemPaletteWatch.sign(view), before, { timeout: boundMs, polling: 50 });
    return (await handle.jsonValue()) as string;
  } catch (error) {
    if (error instanceof errors.TimeoutError) return null;
    throw error;
  }
}

/** Every toast shown since the watch began. */
export const shownToasts = (page: Page): Promise<ShownToast[]> => page.evaluate(() => (window as unknown as Watched).tandemPaletteWatch.toasts);
