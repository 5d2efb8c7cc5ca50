import * as vscode from 'vscode';
import type { FsDecisions } from '../fileService';
import { visibleText } from '../../util/visibleText';

/** A path the agent named, as a modal question shows it: nothing hidden or reordered. */
const shownPath = (path: string) => visibleText(vscode.workspace.asRelativePath(path));

/** The user's answers to what an agent may not decide alone, as modal questions. */
export const modalFsDecisions: FsDecisions = {
  async allowOutsideRoots(path, operation) {
    const allow = operation === 'read' ? vscode.l10n.t('Allow Reading') : vscode.l10n.t('Allow Writing');
    const choice = await vscode.window.showWarningMessage(
      operation === 'read' ? vscode.l10n.t('The agent wants to read a file outside this workspace.') : vscode.l10n.t('The agent wants to write a file outside this workspace.'),
      { modal: true, detail: vscode.l10n.t('{0}\n\nOnly allow this if you expected the agent to touch this file.', visibleText(path)) },
      allow,
    );
    return choice === allow;
  },
  async overwriteUserChanges(path) {
    const overwrite = vscode.l10n.t('Use the Agent\'s Version');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('You changed {0} after the agent read it.', shownPath(path)),
      { modal: true, detail: vscode.l10n.t('The agent\'s write would replace your changes. Keep yours to refuse the write; the agent is told to read the file again.') },
      overwrite,
      vscode.l10n.t('Keep Mine'),
    );
    return choice === overwrite;
  },
  async allowExecutionControlWrite(path, reason) {
    const allow = vscode.l10n.t('Allow This Write');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('The agent wants to change {0}, which controls what runs.', shownPath(path)),
      { modal: true, detail: vscode.l10n.t('{0}.\n\nTandem asks every time for such files. Review the change before allowing it.', reason) },
      allow,
    );
    return choice === allow;
  },
};
