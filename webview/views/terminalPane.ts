import type { Terminal } from '@xterm/xterm';
import type { TerminalStateView } from '../../src/contract/terminalView';
import { button, el, icon, spinner } from '../dom';
import type { PostToHost } from '../vscodeApi';
import type { TerminalScreens } from './terminalScreens';

const MAX_ROWS = 16;
/** Output that arrives before the pane is on screen waits here, bounded like everything else. */
const MAX_PENDING_CHARS = 512 * 1024;
/** Hides xterm's cursor: the output is not a prompt the user types at. */
const HIDE_CURSOR = '\u001b[?25l';

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

/** One command's terminal inside a card: a header with its facts and actions, and xterm below. */
export class TerminalPane {
  readonly element: HTMLElement;
  private readonly header = el('div', { class: 'terminal-header' });
  private readonly screen = el('div', { class: 'terminal-screen' });
  private term: Terminal | null = null;
  /** xterm's chunk is on its way: output waits in `pending` meanwhile. */
  private loading = false;
  private disposed = false;
  private pending: string[] = [];
  private pendingChars = 0;
  private receivedAt = performance.now();
  private elapsedNode: HTMLElement | null = null;
  private readonly resizeObserver = new ResizeObserver(() => this.fit());

  constructor(private state: TerminalStateView, private interactive: boolean, private readonly screens: TerminalScreens, private readonly post: PostToHost) {
    this.element = el('div', { class: 'terminal-pane', 'data-terminal-id': state.terminalId, role: 'group', 'aria-label': `Terminal: ${state.command}`, tabindex: '-1' }, this.header, this.screen);
    this.renderHeader();
  }

  get toolCallId(): string | null {
    return this.state.toolCallId;
  }

  get running(): boolean {
    return this.state.running;
  }

  get started(): boolean {
    return this.term !== null || this.loading;
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
    this.term?.write(HIDE_CURSOR);
    this.write(text);
  }

  /**
   * xterm measures its container, so it starts only once the pane is in the document; the first
   * pane shown fetches xterm, and each waiting pane starts when it has come (if still shown).
   */
  openIfShown(): void {
    if (this.term || this.loading || this.disposed || !this.element.isConnected) return;
    if (!this.screens.loaded) {
      this.loading = true;
      void this.screens.load().then((loaded) => {
        this.loading = false;
        if (loaded) this.openIfShown();
        else if (!this.disposed) this.screen.textContent = 'The terminal view could not be loaded.';
      });
      return;
    }
    const font = this.screens.font();
    this.screen.replaceChildren();
    const term = this.screens.open(this.screen, this.columns(font), font);
    this.term = term;
    term.write(HIDE_CURSOR);
    term.attachCustomKeyEventHandler((event) => this.leaveOnKey(event));
    const pending = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    term.write(pending, () => this.fitRows());
    this.resizeObserver.observe(this.screen);
  }

  applyTheme(): void {
    if (this.term) this.screens.applyTheme(this.term);
  }

  tick(): void {
    if (this.elapsedNode && this.state.running) this.elapsedNode.textContent = formatElapsed(this.elapsedMs());
  }

  dispose(): void {
    this.disposed = true;
    this.resizeObserver.disconnect();
    this.term?.dispose();
    this.element.remove();
  }

  /**
   * The pane only shows output (xterm takes no input here, `disableStdin`), so it never keeps the
   * keyboard: Tab and Shift+Tab move on as anywhere else, Escape goes to the pane itself, from where Tab goes on.
   * False: xterm leaves the key to the browser.
   */
  private leaveOnKey(event: KeyboardEvent): boolean {
    if (event.key === 'Tab') return false;
    if (event.key !== 'Escape') return true;
    if (event.type === 'keydown') {
      this.element.focus({ preventScroll: true });
    }
    return false;
  }

  private elapsedMs(): number {
    return this.state.elapsedMs + (this.state.running ? performance.now() - this.receivedAt : 0);
  }

  private columns(font: { family: string; size: number }): number {
    return this.screens.columns(this.screen.clientWidth - 8, font);
  }

  private fit(): void {
    const term = this.term;
    if (!term || !this.element.isConnected) return;
    const cols = this.columns({ size: term.options.fontSize ?? 12, family: term.options.fontFamily ?? 'monospace' });
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
      state.released ? el('span', { class: 'terminal-released', title: 'The agent closed this terminal; its output stays here' }, 'closed') : null);
    this.header.replaceChildren(
      el('div', { class: 'terminal-title' },
        icon('terminal'),
        el('code', { class: 'terminal-command', title: state.command }, state.command),
        // Output reported as text has no process behind it: no status to show.
        this.interactive
          ? el('span', { class: `terminal-status terminal-${status.kind}`, role: 'status' }, (state.running ? spinner : icon)(status.icon), status.text)
          : el('span', { class: 'terminal-status' }, 'output')),
      el('div', { class: 'terminal-meta' }, facts, this.actions()));
  }

  private actions(): HTMLElement {
    const actions = el('div', { class: 'terminal-actions' });
    if (!this.interactive) return actions;
    const { terminalId, origin, running } = this.state;
    if (running) {
      actions.append(button('Stop', {
        icon: 'debug-stop',
        secondary: true,
        title: origin === 'client' ? 'Stop this command and everything it started' : 'Stop the turn (the agent runs this command itself)',
        onClick: () => this.post({ type: 'terminalAction', terminalId, action: 'kill' }),
      }));
    }
    const reveal = button('', {
      icon: 'link-external',
      secondary: true,
      title: 'Open in terminal panel',
      onClick: () => this.post({ type: 'terminalAction', terminalId, action: 'reveal' }),
    });
    reveal.setAttribute('aria-label', 'Open in terminal panel');
    actions.append(reveal);
    return actions;
  }
}
