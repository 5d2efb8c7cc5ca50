import * as vscode from 'vscode';
import { STORAGE_KEYS } from '../../contract/ids';
import { ProjectProgramConsent, type ProgramConsentAnswer, type ProgramConsentQuestion, type ProgramConsentRecord } from '../projectProgramConsent';
import { MementoList } from './mementoList';

/** A modal lists so many programs one by one; the rest are counted. */
const MAX_LISTED = 30;

function isProgramRecord(record: unknown): record is ProgramConsentRecord {
  const candidate = record as ProgramConsentRecord | null;
  return Boolean(candidate) && typeof candidate?.fingerprint === 'string' && typeof candidate.folder === 'string' && typeof candidate.agent === 'string';
}

export function programQuestionDetail(question: ProgramConsentQuestion): string {
  const listed = question.programs.slice(0, MAX_LISTED).map((line) => `• ${line}`);
  const more = question.programs.length - listed.length;
  return [
    vscode.l10n.t('Starting {0} in {1} runs these with your permissions, as this folder\'s files define them:', question.agentLabel, question.folder),
    [...listed, ...(more > 0 ? [vscode.l10n.t('… and {0} more', more)] : [])].join('\n'),
    question.changed > 0 ? vscode.l10n.t('{0} of them changed since you last answered.', question.changed) : null,
    vscode.l10n.t('Start remembers your yes for these exact definitions in this folder; a changed definition asks again.'),
    question.ignoreSettings ? vscode.l10n.t('Start Without Project Settings: {0} (this time only)', question.ignoreSettings) : vscode.l10n.t('{0} has no switch to ignore a project\'s settings.', question.agentLabel),
  ].filter((part): part is string => part !== null).join('\n\n');
}

/**
 * A modal, so nothing starts while it is open. "Don't Start" comes first, so it is the button
 * Enter presses; Escape and closing the dialog do not start the agent either.
 */
async function askWithModal(question: ProgramConsentQuestion): Promise<ProgramConsentAnswer> {
  const dontStart = vscode.l10n.t('Don\'t Start');
  const start = vscode.l10n.t('Start');
  const without = vscode.l10n.t('Start Without Project Settings');
  const choices = question.ignoreSettings ? [dontStart, start, without] : [dontStart, start];
  const choice = await vscode.window.showWarningMessage(vscode.l10n.t('{0} would run programs from this folder\'s files. Start it?', question.agentLabel), { modal: true, detail: programQuestionDetail(question) }, ...choices);
  return choice === start ? 'start' : choice === without ? 'withoutProjectSettings' : null;
}

/** Answers live in the editor's global storage: a project cannot write itself a yes. */
export function createProjectProgramConsent(context: vscode.ExtensionContext): ProjectProgramConsent {
  return new ProjectProgramConsent(new MementoList(context.globalState, STORAGE_KEYS.projectProgramConsent, isProgramRecord), askWithModal);
}
