import * as vscode from 'vscode';
import { STORAGE_KEYS } from '../../contract/ids';
import { McpConsent, type McpConsentAnswer, type McpConsentQuestion, type McpConsentRecord, type McpConsentStore } from '../mcpConsent';

/** Answers live in the editor's global storage: a project cannot write itself a yes. */
class MementoConsentStore implements McpConsentStore {
  constructor(private readonly memento: vscode.Memento) {}

  load(): McpConsentRecord[] {
    const raw = this.memento.get<unknown>(STORAGE_KEYS.mcpServerConsent);
    return Array.isArray(raw) ? raw.filter((record): record is McpConsentRecord => Boolean(record) && typeof (record as McpConsentRecord).fingerprint === 'string') : [];
  }

  save(records: McpConsentRecord[]): void {
    void this.memento.update(STORAGE_KEYS.mcpServerConsent, records);
  }
}

/** A modal, as VS Code asks before it starts a server from a workspace file: nothing starts while it is open. */
async function askWithModal(question: McpConsentQuestion): Promise<McpConsentAnswer | null> {
  const allow = 'Allow';
  const decline = 'Don\'t Allow';
  const detail = [
    question.changed ? 'Its definition changed since you last answered.' : null,
    `The agent will start this when the session opens, with your permissions:\n\n${question.runs}`,
    question.details.length > 0 ? question.details.join('\n') : null,
    `Defined in ${question.source} (${question.workspace}). Tandem remembers your answer for this folder and this exact definition.`,
  ].filter((part): part is string => part !== null).join('\n\n');
  const choice = await vscode.window.showWarningMessage(`Start the MCP server "${question.name}" from this project?`, { modal: true, detail }, allow, decline);
  return choice === allow ? 'allowed' : choice === decline ? 'declined' : null;
}

export function createMcpConsent(context: vscode.ExtensionContext): McpConsent {
  return new McpConsent(new MementoConsentStore(context.globalState), askWithModal);
}
