import * as vscode from 'vscode';
import { STORAGE_KEYS } from '../../contract/ids';
import { McpConsent, type McpConsentAnswer, type McpConsentQuestion, type McpConsentRecord } from '../mcpConsent';
import { MementoList } from './mementoList';
import { visibleText } from '../../util/visibleText';

function isConsentRecord(record: unknown): record is McpConsentRecord {
  return Boolean(record) && typeof (record as McpConsentRecord).fingerprint === 'string';
}

/** A modal, as VS Code asks before it starts a server from a workspace file: nothing starts while it is open. */
async function askWithModal(question: McpConsentQuestion): Promise<McpConsentAnswer | null> {
  const allow = 'Allow';
  const decline = 'Don\'t Allow';
  const detail = [
    question.changed ? 'Its definition changed since you last answered.' : null,
    `The agent will start this when the session opens, with your permissions:\n\n${visibleText(question.runs)}`,
    question.details.length > 0 ? question.details.map(visibleText).join('\n') : null,
    `Defined in ${question.source} (${question.workspace}). Tandem remembers your answer for this folder and this exact definition.`,
  ].filter((part): part is string => part !== null).join('\n\n');
  const choice = await vscode.window.showWarningMessage(`Start the MCP server "${visibleText(question.name)}" from this project?`, { modal: true, detail }, allow, decline);
  return choice === allow ? 'allowed' : choice === decline ? 'declined' : null;
}

/** Answers live in the editor's global storage: a project cannot write itself a yes. */
export function createMcpConsent(context: vscode.ExtensionContext): McpConsent {
  return new McpConsent(new MementoList(context.globalState, STORAGE_KEYS.mcpServerConsent, isConsentRecord), askWithModal);
}
