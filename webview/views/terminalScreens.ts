import type * as Xterm from '@xterm/xterm';
import { el } from '../dom';

const SCROLLBACK_LINES = 3000;

const ansiNames = ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White'] as const;

/** The terminal colours of the current VS Code theme. */
function themeFromVsCode(): Xterm.ITheme {
  const style = getComputedStyle(document.body);
  const color = (name: string) => style.getPropertyValue(`--vscode-${name}`).trim() || undefined;
  const theme: Record<string, string | undefined> = {
    background: color('terminal-background') ?? color('editor-background'),
    foreground: color('terminal-foreground') ?? color('editor-foreground'),
    selectionBackground: color('terminal-selectionBackground'),
  };
  for (const name of ansiNames) {
    const key = name.toLowerCase();
    theme[key] = color(`terminal-ansi${name}`);
    theme[`bright${name}`] = color(`terminal-ansiBright${name}`);
  }
  return Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined)) as Xterm.ITheme;
}

export interface TerminalFont {
  family: string;
  size: number;
}

/**
 * What every xterm of the panel shares: the editor's font and colours, the measured width of a
 * character, and the page nonce its styles need.
 *
 * xterm's DOM renderer puts its theme and cell sizes in <style> elements it creates. The panel's
 * CSP only runs styles carrying the page nonce, so those elements get the nonce of the page's
 * script: the CSP stays strict (no 'unsafe-inline') and nothing else gains the right.
 * Limitation: 24-bit colours, which xterm sets as style attributes, fall back to the default.
 *
 * xterm is a third of the panel's code and most conversations never show a terminal: it is a chunk
 * of its own, fetched when the first pane comes near the screen (the page nonce lets it in).
 */
export class TerminalScreens {
  private measured: { font: string; width: number } | null = null;
  private xterm: typeof Xterm | null = null;
  private loading: Promise<boolean> | null = null;

  constructor(private readonly nonce: string) {}

  /** Whether `open` can start a terminal now. */
  get loaded(): boolean {
    return this.xterm !== null;
  }

  /** Fetches xterm's chunk (once); false when it could not be loaded, and a later call tries again. */
  load(): Promise<boolean> {
    this.loading ??= import('@xterm/xterm').then((module) => {
      this.xterm = module;
      return true;
    }, (error: unknown) => {
      this.loading = null;
      console.error('Tandem: the terminal view did not load', error);
      return false;
    });
    return this.loading;
  }

  font(): TerminalFont {
    const style = getComputedStyle(document.body);
    return {
      family: style.getPropertyValue('--vscode-editor-font-family').trim() || 'monospace',
      size: Math.min(13, parseFloat(style.getPropertyValue('--vscode-editor-font-size')) || 12),
    };
  }

  /** How many columns of `font` fit in `width` pixels. */
  columns(width: number, font: TerminalFont): number {
    return Math.max(20, Math.floor(width / this.charWidth(`${font.size}px ${font.family}`)));
  }

  /** An xterm for output only, started in `container` (which must be in the document), once `loaded`. */
  open(container: HTMLElement, cols: number, font: TerminalFont): Xterm.Terminal {
    if (!this.xterm) throw new Error('xterm is not loaded yet');
    const term = new this.xterm.Terminal({
      cols,
      rows: 1,
      convertEol: true,
      disableStdin: true,
      cursorInactiveStyle: 'none',
      scrollback: SCROLLBACK_LINES,
      fontFamily: font.family,
      fontSize: font.size,
      theme: themeFromVsCode(),
    });
    this.withNoncedStyles(() => term.open(container));
    return term;
  }

  /** The VS Code theme changed (light, dark, high contrast): recolour what is shown. */
  applyTheme(term: Xterm.Terminal): void {
    this.withNoncedStyles(() => (term.options.theme = themeFromVsCode()));
  }

  private charWidth(font: string): number {
    if (this.measured?.font === font) return this.measured.width;
    const probe = el('span', { class: 'terminal-measure' }, 'W'.repeat(50));
    probe.style.font = font;
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width / 50 || 7;
    probe.remove();
    this.measured = { font, width };
    return width;
  }

  private withNoncedStyles<T>(run: () => T): T {
    const original = document.createElement;
    const nonce = this.nonce;
    document.createElement = function createElement(this: Document, tagName: string, options?: ElementCreationOptions) {
      const node = original.call(this, tagName, options);
      if (node instanceof HTMLStyleElement) node.nonce = nonce;
      return node;
    } as typeof document.createElement;
    try {
      return run();
    } finally {
      document.createElement = original;
    }
  }
}
