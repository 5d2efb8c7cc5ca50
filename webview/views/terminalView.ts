import { Terminal, type ITheme } from '@xterm/xterm';
import type { TerminalOutputView, TerminalSnapshotView, TerminalStateView } from '../../src/contract/terminalView';
import { button, el, icon } from '../dom';
import { postToHost } from '../vscodeApi';

const MAX_ROWS = 16;
const SCROLLBACK_LINES = 3000;
/** Output that arrives before the pane is on screen waits here, bounded like everything else. */
const MAX_PENDING_CHARS = 512 * 1024;

/**
 * xterm's DOM renderer puts its theme and cell sizes in <style> elements it creates. The
 * panel's CSP only runs styles carrying the page nonce, so those elements get the nonce of
 * this script: the CSP stays strict (no 'unsafe-inline') and nothing else gains the right.
 * Limitation: 24-bit colours, which xterm sets as style attributes, fall back to the default.
 */
const pageNonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';

function withNoncedStyles<T>(run: () => T): T {
  const original = document.createElement;
  document.createElement = function createElement(this: Document, tagName: string, options?: ElementCreationOptions) {
    const node = original.call(this, tagName, options);
    if (node instanceof HTMLStyleElement) node.nonce = pageNonce;
    return node;
  } as typeof document.createElement;
  try {
    return run();
  } finally {
    document.createElement = original;
  }
}

const ansiNames = ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White'] as const;

/** The terminal colours of the current VS Code theme. */
function themeFromVsCode(): ITheme {
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
  return Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined)) as ITheme;
}

/** On screen now, or within a screen of it: start at once rather than wait for an observer. */
function nearViewport(element: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom >= -window.innerHeight && box.top <= window.innerHeight * 2;
}

function formatElapsed(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.floor(seconds % 60)} s`;
}

function statusOf(state: TerminalStateView): { text: string; icon: string; kind: string } {
  if (state.running) return { text: 'Running', icon: 'loading', kind: 'running' };
  if (state.signal) return { text: state.signal, icon: 'debug-stop', kind: 'signal' };
  if (state.exitCode === null) return { text: 'Ended', icon: 'circle-slash', kind: 'unknown' };
  return { text: `Exit ${state.exitCode}`, icon: state.exitCode === 0 ? 'pass' : 'error', kind: state.exitCode === 0 ? 'success' : 'failure' };
}

let measuredCharWidth: { font: string; width: number } | null = null;

function charWidth(font: string): number {
  if (measuredCharWidth?.font === font) return measuredCharWidth.width;
  const probe = el('span', { class: 'terminal-measure' }, 'W'.repeat(50));
  probe.style.font = font;
  document.body.append(probe);
  const width = probe.getBoundingClientRect().width / 50 || 7;
  probe.remove();
  measuredCharWidth = { font, width };
  return width;
}

/** One command's terminal inside a card: a header with its facts and actions, and xterm below. */
class TerminalPane {
  readonly element: HTMLElement;
  private readonly header = el('div', { class: 'terminal-header' });
  private readonly screen = el('div', { class: 'terminal-screen' });
  private term: Terminal | null = null;
  private pending: string[] = [];
  private pendingChars = 0;
  private receivedAt = performance.now();
  private elapsedNode: HTMLElement | null = null;
  private readonly resizeObserver = new ResizeObserver(() => this.fit());

  constructor(private state: TerminalStateView, private interactive: boolean) {
    this.element = el('div', { class: 'terminal-pane', 'data-terminal-id': state.terminalId, role: 'group', 'aria-label': `Terminal: ${state.command}` }, this.header, this.screen);
    this.renderHeader();
  }

  get terminalId(): string {
    return this.state.terminalId;
  }

  get toolCallId(): string | null {
    return this.state.toolCallId;
  }

  get running(): boolean {
    return this.state.running;
  }

  /** A known terminal's state: its facts and actions show (a placeholder had none). */
  setState(state: TerminalStateView): void {
    this.state = state;
    this.interactive = true;
    this.receivedAt = performance.now();
    this.renderHeader();
  }

  write(data: string, skipped = 0): void {
    const text = skipped > 0 ? `\r\n\u001b[2m… ${skipped.toLocaleString()} characters skipped …\u001b[0m\r\n${data}` : data;
    if (!text) return;
    if (this.term) {
      this.term.write(text, () => this.fitRows());
      return;
    }
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars > MAX_PENDING_CHARS * 2) {
      const joined = this.pending.join('');
      this.pending = [joined.slice(-MAX_PENDING_CHARS)];
      this.pendingChars = MAX_PENDING_CHARS;
    }
  }

  /** Replaces everything shown (a static output that changed). */
  replace(text: string): void {
    this.pending = [];
    this.pendingChars = 0;
    this.term?.reset();
    this.term?.write('\u001b[?25l');
    this.write(text);
  }

  /** xterm measures its container, so it starts only once the pane is in the document. */
  openIfShown(): void {
    if (this.term || !this.element.isConnected) return;
    const style = getComputedStyle(document.body);
    const fontFamily = style.getPropertyValue('--vscode-editor-font-family').trim() || 'monospace';
    const fontSize = Math.min(13, parseFloat(style.getPropertyValue('--vscode-editor-font-size')) || 12);
    const term = new Terminal({
      cols: this.columns(fontSize, fontFamily),
      rows: 1,
      convertEol: true,
      disableStdin: true,
      cursorInactiveStyle: 'none',
      scrollback: SCROLLBACK_LINES,
      fontFamily,
      fontSize,
      theme: themeFromVsCode(),
    });
    withNoncedStyles(() => term.open(this.screen));
    this.term = term;
    term.write('\u001b[?25l');
    const pending = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    term.write(pending, () => this.fitRows());
    this.resizeObserver.observe(this.screen);
  }

  /** The VS Code theme changed (light, dark, high contrast): recolour what is shown. */
  applyTheme(): void {
    const term = this.term;
    if (term) withNoncedStyles(() => (term.options.theme = themeFromVsCode()));
  }

  get started(): boolean {
    return this.term !== null;
  }

  tick(): void {
    if (this.elapsedNode && this.state.running) this.elapsedNode.textContent = formatElapsed(this.elapsedMs());
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    this.term?.dispose();
    this.element.remove();
  }

  private elapsedMs(): number {
    return this.state.elapsedMs + (this.state.running ? performance.now() - this.receivedAt : 0);
  }

  private columns(fontSize: number, fontFamily: string): number {
    const width = this.screen.clientWidth - 8;
    return Math.max(20, Math.floor(width / charWidth(`${fontSize}px ${fontFamily}`)));
  }

  private fit(): void {
    const term = this.term;
    if (!term || !this.element.isConnected) return;
    const cols = this.columns(term.options.fontSize ?? 12, term.options.fontFamily ?? 'monospace');
    if (cols !== term.cols) term.resize(cols, term.rows);
  }

  /** Grows with the output up to MAX_ROWS; beyond that the terminal scrolls. */
  private fitRows(): void {
    const term = this.term;
    if (!term) return;
    const buffer = term.buffer.active;
    const rows = Math.max(1, Math.min(MAX_ROWS, buffer.baseY + buffer.cursorY + 1));
    if (rows !== term.rows) term.resize(term.cols, rows);
  }

  private renderHeader(): void {
    const state = this.state;
    const status = statusOf(state);
    this.elapsedNode = el('span', { class: 'terminal-elapsed', title: 'Elapsed time' }, formatElapsed(this.elapsedMs()));
    const facts = el('div', { class: 'terminal-facts' },
      state.cwd ? el('span', { class: 'terminal-cwd', title: state.cwd }, icon('folder'), ` ${state.cwd}`) : null,
      this.interactive ? this.elapsedNode : null,
      state.truncated ? el('span', { class: 'terminal-truncated', title: 'Earlier output was dropped to stay within the output limit' }, 'truncated') : null,
      state.released ? el('span', { class: 'terminal-released', title: 'The agent released this terminal' }, 'released') : null);
    const actions = el('div', { class: 'terminal-actions' });
    if (this.interactive && state.running) {
      actions.append(button('Stop', {
        icon: 'debug-stop',
        secondary: true,
        title: state.origin === 'client' ? 'Stop this command and everything it started' : 'Stop the turn (the agent runs this command itself)',
        onClick: () => postToHost({ type: 'terminalAction', terminalId: state.terminalId, action: 'kill' }),
      }));
    }
    if (this.interactive) {
      const reveal = button('', {
        icon: 'link-external',
        secondary: true,
        title: 'Open in terminal panel',
        onClick: () => postToHost({ type: 'terminalAction', terminalId: state.terminalId, action: 'reveal' }),
      });
      reveal.setAttribute('aria-label', 'Open in terminal panel');
      actions.append(reveal);
    }
    this.header.replaceChildren(
      el('div', { class: 'terminal-title' },
        icon('terminal'),
        el('code', { class: 'terminal-command', title: state.command }, state.command),
        // Output reported as text has no process behind it: no status to show.
        this.interactive
          ? el('span', { class: `terminal-status terminal-${status.kind}`, role: 'status' }, icon(status.icon, state.running ? 'codicon-modifier-spin' : ''), status.text)
          : el('span', { class: 'terminal-status' }, 'output')),
      el('div', { class: 'terminal-meta' }, facts, actions));
  }
}

/**
 * Every terminal pane of the panel, kept across card re-renders: a card asks for its pane and
 * gets the same element (with its xterm and scrollback) each time it is rebuilt.
 */
export class TerminalPanes {
  private readonly panes = new Map<string, TerminalPane>();
  private readonly staticTexts = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private openScheduled = false;
  constructor() {
    // An xterm costs milliseconds and memory, and a long thread can hold thousands of command
    // outputs: a pane starts only when it comes near the screen, so scrolling is a reason to look.
    document.addEventListener('scroll', () => this.scheduleOpen(), { capture: true, passive: true });
    // VS Code swaps the body's theme class and variables when the user changes the colour theme.
    new MutationObserver(() => {
      for (const pane of this.panes.values()) pane.applyTheme();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  reset(terminals: TerminalSnapshotView[]): void {
    for (const pane of this.panes.values()) pane.dispose();
    this.panes.clear();
    this.staticTexts.clear();
    for (const terminal of terminals) {
      this.pane(terminal.terminalId, terminal).write(terminal.output);
    }
    this.updateTimer();
  }

  apply(changed: TerminalStateView[], output: TerminalOutputView[]): void {
    for (const state of changed) {
      const known = this.panes.get(state.terminalId);
      if (known) known.setState(state);
      else this.pane(state.terminalId, state);
      this.attachToCard(state);
    }
    for (const chunk of output) this.panes.get(chunk.terminalId)?.write(chunk.data, chunk.skipped);
    this.updateTimer();
  }

  /**
   * The pane of a terminal a card shows. Until its state arrives (or for a card from an earlier
   * window, whose terminal is gone) it is a plain placeholder without status or actions.
   */
  element(terminalId: string): HTMLElement {
    const placeholder: TerminalStateView = { terminalId, toolCallId: null, origin: 'agent', command: 'Terminal', cwd: null, running: false, elapsedMs: 0, exitCode: null, signal: null, truncated: false, released: false };
    return this.pane(terminalId, placeholder, false).element;
  }

  /** A display terminal the agent attached to this tool call without a terminal content entry. */
  elementForToolCall(toolCallId: string): HTMLElement | null {
    for (const pane of this.panes.values()) if (pane.toolCallId === toolCallId) return pane.element;
    return null;
  }

  /** Command output that came as text (agents without display terminals): shown as output, not prose. */
  staticOutput(key: string, command: string, text: string): HTMLElement {
    const body = text.replace(/^```[\w-]*\n([\s\S]*?)\n?```\s*$/, '$1');
    const known = this.panes.get(key);
    if (known && this.staticTexts.get(key) === body) return known.element;
    const pane = known ?? this.pane(key, { terminalId: key, toolCallId: null, origin: 'agent', command, cwd: null, running: false, elapsedMs: 0, exitCode: null, signal: null, truncated: false, released: false }, false);
    this.staticTexts.set(key, body);
    pane.replace(body);
    return pane.element;
  }

  private pane(terminalId: string, state: TerminalStateView, interactive = true): TerminalPane {
    let pane = this.panes.get(terminalId);
    if (!pane) {
      pane = new TerminalPane(state, interactive);
      this.panes.set(terminalId, pane);
    }
    this.scheduleOpen();
    return pane;
  }

  private attachToCard(state: TerminalStateView): void {
    const pane = this.panes.get(state.terminalId);
    if (!pane || pane.element.isConnected || !state.toolCallId) return;
    const card = document.querySelector(`.tool-card[data-tool-call-id="${CSS.escape(state.toolCallId)}"]`);
    card?.querySelector('.tool-header')?.after(pane.element);
  }

  /** Panes start once they are in the document (cards are appended after they are built). */
  private scheduleOpen(): void {
    if (this.openScheduled) return;
    this.openScheduled = true;
    requestAnimationFrame(() => {
      this.openScheduled = false;
      for (const pane of this.panes.values()) {
        if (!pane.started && pane.element.isConnected && nearViewport(pane.element)) pane.openIfShown();
      }
    });
  }

  private updateTimer(): void {
    const anyRunning = [...this.panes.values()].some((pane) => pane.running);
    if (anyRunning && !this.timer) {
      this.timer = setInterval(() => {
        for (const pane of this.panes.values()) pane.tick();
      }, 1000);
    } else if (!anyRunning && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

export const terminalPanes = new TerminalPanes();
