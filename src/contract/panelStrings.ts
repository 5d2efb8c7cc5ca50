/**
 * The panel's own texts, in English, by key. The webview has no `vscode.l10n`: the host
 * translates each text (`vscode.l10n.t`) and hands the webview the map in the panel document,
 * and scripts/l10n.mjs puts these texts in the l10n bundle. Texts not yet listed here are still
 * written in English where the webview shows them.
 */
export const englishPanelStrings = {
  emptyState: 'Ask the agent anything about this workspace.',
  emptyStateTour: 'New here? Send /tour for a short tour of reviewing an agent\'s changes. Type @ to mention files.',
  emptyStateHint: 'Enter sends, Shift+Enter adds a line, / lists the agent\'s commands. Every message to and from the agent is in Tandem: Show Traffic.',
  composerPlaceholder: 'Ask the agent (/ commands, @ files)',
  commandsNotStarted: 'The agent lists its commands once it has started: send a message to start it.',
  commandsFromLastRun: 'Commands from the agent\'s last run: it starts when you send.',
  composerLabel: 'Message to the agent. Enter sends, Shift+Enter adds a line, / for commands, @ to mention files',
  send: 'Send',
  sendTitle: 'Send (Enter)',
  stop: 'Stop',
  stopTitle: 'Stop the agent (Escape); type to queue a message',
} as const;

export type PanelStrings = Record<keyof typeof englishPanelStrings, string>;

/** The attribute of the panel's root element that carries the texts, as JSON. */
export const PANEL_STRINGS_ATTRIBUTE = 'data-strings';
