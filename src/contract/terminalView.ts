/**
 * Terminals as the webview shows them (src/terminals/terminalStates.ts), what the user can do to
 * one, and the sign-in methods an agent offers (src/conversation/connection.ts).
 */
export type { TerminalOriginView, TerminalStateView, TerminalSnapshotView, TerminalOutputView } from '../terminals/terminalStates';
export type { SignInMethodView } from '../conversation/connection';

export const terminalActions = ['kill', 'reveal'] as const;
export type TerminalAction = (typeof terminalActions)[number];
