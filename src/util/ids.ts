/**
 * The names Tandem is known by outside its code, each spelled once: package.json contributes the
 * commands, views and settings under them, users' settings and keybindings name them, and what
 * earlier versions stored is read back under the same keys. So none is ever renamed.
 * test/unit/packageContributions.test.ts checks package.json, and the code's registrations,
 * against these lists. At the bottom of the order because cores name settings too; src/contract/ids.ts
 * publishes them to the webview, which names a setting.
 */

/** Every command package.json contributes. */
export const COMMANDS = {
  newSession: 'tandem.newSession',
  cancelTurn: 'tandem.cancelTurn',
  selectAgent: 'tandem.selectAgent',
  restartAgent: 'tandem.restartAgent',
  redoRestore: 'tandem.redoRestore',
  showLog: 'tandem.showLog',
  showTraffic: 'tandem.showTraffic',
  signOut: 'tandem.signOut',
  keepHunk: 'tandem.keepHunk',
  undoHunk: 'tandem.undoHunk',
  commentHunk: 'tandem.commentHunk',
  keepAllChanges: 'tandem.keepAllChanges',
  undoAllChanges: 'tandem.undoAllChanges',
  redoUndo: 'tandem.redoUndo',
  nextChange: 'tandem.nextChange',
  previousChange: 'tandem.previousChange',
  openChange: 'tandem.openChange',
  reviewChanges: 'tandem.reviewChanges',
  showFrameInspector: 'tandem.showFrameInspector',
  showFidelityReport: 'tandem.showFidelityReport',
  exportConversationFrames: 'tandem.exportConversationFrames',
  saveRecording: 'tandem.saveRecording',
  replayRecording: 'tandem.replayRecording',
  addAgentFromRegistry: 'tandem.addAgentFromRegistry',
  showWaitingQuestion: 'tandem.showWaitingQuestion',
  showUsage: 'tandem.showUsage',
  exportUsage: 'tandem.exportUsage',
} as const;

/** Every view package.json contributes. */
export const VIEWS = {
  chat: 'tandem.chat',
} as const;

/** VS Code's own command for a contributed view: it reveals the view and focuses it. */
export const FOCUS_CHAT_COMMAND = `${VIEWS.chat}.focus`;

/** Every setting package.json contributes. */
export const SETTINGS = {
  agents: 'tandem.agents',
  agentPriority: 'tandem.agentPriority',
  defaultAgent: 'tandem.defaultAgent',
  autoAllow: 'tandem.permissions.autoAllow',
  revealOnStartup: 'tandem.revealOnStartup',
  tellAgentAboutUndo: 'tandem.review.tellAgentAboutUndo',
  mcpServers: 'tandem.mcpServers',
  registryUrl: 'tandem.registryUrl',
  notifyWhenWaiting: 'tandem.notifyWhenWaiting',
  budgetPerConversation: 'tandem.budget.perConversation',
  budgetPerDay: 'tandem.budget.perDay',
  budgetPerMonth: 'tandem.budget.perMonth',
  budgetCurrency: 'tandem.budget.currency',
} as const;

/** Context keys Tandem sets, which package.json's `when` clauses read. */
export const CONTEXT_KEYS = {
  hasPendingChanges: 'tandem.hasPendingChanges',
  canRedoUndo: 'tandem.canRedoUndo',
} as const;

/** Keys of what Tandem keeps in the editor's storage (global, workspace, and the workspace record files). */
export const STORAGE_KEYS = {
  selectedAgent: 'tandem.selectedAgent',
  permissionGrants: 'tandem.permissionGrants',
  mcpServerConsent: 'tandem.mcpServerConsent',
  projectProgramConsent: 'tandem.projectProgramConsent',
  apiKeyVariables: 'tandem.apiKeyVariables',
  transcripts: 'tandem.transcripts',
  reviewLedger: 'tandem.review.ledger',
  reviewFeedback: 'tandem.review.feedback',
  reviewOwners: 'tandem.review.owners',
  checkpointsIndex: 'tandem.checkpoints.index',
  usedInWorkspace: 'tandem.usedInWorkspace',
  rememberedCommands: 'tandem.rememberedCommands',
} as const;

/** The SecretStorage name of an API key kept for an agent. */
export function apiKeySecretName(agentId: string, variable: string): string {
  return `tandem.apiKey.${agentId}.${variable}`;
}

/** The frame inspector's webview panel type. */
export const FRAME_INSPECTOR_PANEL_TYPE = 'tandem.frameInspector';

/** The usage status bar item (VS Code remembers by it whether the user hid the item). */
export const USAGE_STATUS_ITEM = 'tandem.usage';

/** The status bar item shown while an agent waits for the user. */
export const WAITING_STATUS_ITEM = 'tandem.waiting';
