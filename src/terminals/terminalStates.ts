/**
 * Terminals as the terminals feature keeps them and the webview shows them: commands Tandem runs
 * for `terminal/*` ("client") and commands the agent runs itself and reports through tool-call
 * `_meta` ("agent"). Plain data: src/contract publishes it to the webview.
 */

export type TerminalOriginView = 'client' | 'agent';

export interface TerminalStateView {
  terminalId: string;
  /** The tool call whose card shows this terminal, once known. */
  toolCallId: string | null;
  origin: TerminalOriginView;
  /** The command line as a person would type it. */
  command: string;
  cwd: string | null;
  running: boolean;
  /** Milliseconds since the command started, when this view was made; the webview keeps counting. */
  elapsedMs: number;
  exitCode: number | null;
  signal: string | null;
  /** Output was dropped from the beginning (the agent's byte limit, or the display's own bound). */
  truncated: boolean;
  /** The agent released the terminal: the process is gone, its output stays visible. */
  released: boolean;
}

export interface TerminalSnapshotView extends TerminalStateView {
  /** The newest output, bounded. */
  output: string;
}

export interface TerminalOutputView {
  terminalId: string;
  data: string;
  /** Characters left out before `data` because output came faster than the view is fed. */
  skipped: number;
}
