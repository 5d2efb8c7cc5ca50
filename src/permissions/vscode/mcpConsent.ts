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
  const allow = vscode.l10n.t('Allow');
  const decline = vscode.l10n.t('Don\'t Allow');
  const detail = [
    question.changed ? vscode.l10n.t('Its definition changed since you last answered.') : null,
    vscode.l10n.t('The agent will start this when the session opens, with your permissions:\n\n{0}', visibleText(question.runs)),
    question.details.length > 0 ? question.details.map(visibleText).join('\n') : null,
    vscode.l10n.t('Defined in {0} ({1}). Tandem remembers your answer for this folder and this exact definition.', question.source, question.workspace),
  ].filter((part): part is string => part !== null).join('\n\n');
  const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Start the MCP server "{0}" from this project?', visibleText(question.name)), { modal: true, detail }, allow, decline);
  return choice === allow ? 'allowed' : choice === decline ? 'declined' : null;
}

/** Answers live in the editor's global storage: a project cannot write itself a yes. */
export function createMcpConsent(context: vscode.ExtensionContext): McpConsent {
  return new McpConsent(new MementoList(context.globalState, STORAGE_KEYS.mcpServerConsent, isConsentRecord), askWithModal);
}
