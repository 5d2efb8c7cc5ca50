/**
 * Terminals as the webview shows them: commands Tandem runs for `terminal/*` ("client") and
 * commands the agent runs itself and reports through tool-call `_meta` ("agent").
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

export const terminalActions = ['kill', 'reveal'] as const;
export type TerminalAction = (typeof terminalActions)[number];

/** A way to sign in that the agent offers after it answered "authentication required". */
export interface SignInMethodView {
  methodId: string;
  name: string;
  description: string | null;
  /** 'terminal': Tandem runs a login command in a terminal; 'agent': the agent signs in itself; 'apiKey': Tandem asks for a key and keeps it in the editor's secret storage. */
  kind: 'terminal' | 'agent' | 'apiKey';
}
