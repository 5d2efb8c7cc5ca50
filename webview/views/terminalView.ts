import type { TerminalOutputView, TerminalSnapshotView, TerminalStateView } from '../../src/contract/terminalView';
import type { PostToHost } from '../vscodeApi';
import { TerminalPane } from './terminalPane';
import { TerminalScreens } from './terminalScreens';

/** A pane without a process behind it: a card's terminal whose state has not come (yet), or output reported as text. */
function placeholderState(terminalId: string, command: string): TerminalStateView {
  return { terminalId, toolCallId: null, origin: 'agent', command, cwd: null, running: false, elapsedMs: 0, exitCode: null, signal: null, truncated: false, released: false };
}

/**
 * Every terminal pane of the panel, kept across card re-renders: a card asks for its pane and
 * gets the same element (with its xterm and scrollback) each time it is rebuilt.
 */
export class TerminalPanes {
  private readonly panes = new Map<string, TerminalPane>();
  private readonly staticTexts = new Map<string, string>();
  private readonly screens: TerminalScreens;
  private timer: ReturnType<typeof setInterval> | null = null;
  /**
   * An xterm costs milliseconds and memory, and a long thread can hold thousands of command
   * outputs: a pane starts only when it comes within a screen of the view. The browser tells
   * which panes did, after its own layout, so nothing here measures a pane and forces one.
   */
  private readonly nearScreen: IntersectionObserver;
  private readonly paneByElement = new WeakMap<Element, TerminalPane>();

  /**
   * `nonce`: the page's, which xterm's own style elements need under the CSP. `scroller`: the
   * thread, whose scrolling brings panes near: with it as the root the margin of a screen holds
   * in the editor's cross-origin webview frame too (against the top page it would be ignored).
   */
  constructor(private readonly post: PostToHost, nonce: string, scroller: HTMLElement) {
    this.screens = new TerminalScreens(nonce);
    this.nearScreen = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const pane = this.paneByElement.get(entry.target);
        pane?.openIfShown();
        if (!pane || pane.started) this.nearScreen.unobserve(entry.target);
      }
    }, { root: scroller, rootMargin: '100% 0px 100% 0px' });
    // VS Code swaps the body's theme class and variables when the user changes the colour theme.
    new MutationObserver(() => {
      for (const pane of this.panes.values()) pane.applyTheme();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  reset(terminals: TerminalSnapshotView[]): void {
    for (const pane of this.panes.values()) {
      this.nearScreen.unobserve(pane.element);
      pane.dispose();
    }
    this.panes.clear();
    this.staticTexts.clear();
    for (const terminal of terminals) {
      this.pane(terminal.terminalId, terminal).write(terminal.output);
    }
    this.updateTimer();
  }

  /**
   * New states and output. Returns the tool calls whose cards should be drawn again because
   * they now have a terminal they are not showing (one the agent named only in `_meta`).
   */
  apply(changed: TerminalStateView[], output: TerminalOutputView[]): string[] {
    const cardsToRedraw: string[] = [];
    for (const state of changed) {
      const known = this.panes.get(state.terminalId);
      if (known) known.setState(state);
      const pane = known ?? this.pane(state.terminalId, state);
      if (state.toolCallId && !pane.element.isConnected) cardsToRedraw.push(state.toolCallId);
    }
    for (const chunk of output) this.panes.get(chunk.terminalId)?.write(chunk.data, chunk.skipped);
    this.updateTimer();
    return cardsToRedraw;
  }

  /**
   * The pane of a terminal a card shows. Until its state arrives (or for a card from an earlier
   * window, whose terminal is gone) it is a plain placeholder without status or actions.
   */
  element(terminalId: string): HTMLElement {
    return this.pane(terminalId, placeholderState(terminalId, 'Terminal'), false).element;
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
    const pane = known ?? this.pane(key, placeholderState(key, command), false);
    this.staticTexts.set(key, body);
    pane.replace(body);
    return pane.element;
  }

  private pane(terminalId: string, state: TerminalStateView, interactive = true): TerminalPane {
    let pane = this.panes.get(terminalId);
    if (!pane) {
      pane = new TerminalPane(state, interactive, this.screens, this.post);
      this.panes.set(terminalId, pane);
      this.paneByElement.set(pane.element, pane);
      // Cards are appended after they are built: the browser reports the pane once it is in the document.
      this.nearScreen.observe(pane.element);
    }
    return pane;
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
