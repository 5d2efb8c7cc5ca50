import * as vscode from 'vscode';
import type { FsDecisions } from '../fileService';
import { visibleText } from '../../util/visibleText';

/** A path the agent named, as a modal question shows it: nothing hidden or reordered. */
const shownPath = (path: string) => visibleText(vscode.workspace.asRelativePath(path));

/** The user's answers to what an agent may not decide alone, as modal questions. */
export const modalFsDecisions: FsDecisions = {
  async allowOutsideRoots(path, operation) {
    const allow = operation === 'read' ? 'Allow Reading' : 'Allow Writing';
    const choice = await vscode.window.showWarningMessage(
      `The agent wants to ${operation} a file outside this workspace.`,
      { modal: true, detail: `${visibleText(path)}\n\nOnly allow this if you expected the agent to touch this file.` },
      allow,
    );
    return choice === allow;
  },
  async overwriteUserChanges(path) {
    const overwrite = 'Use the Agent\'s Version';
    const choice = await vscode.window.showWarningMessage(
      `You changed ${shownPath(path)} after the agent read it.`,
      { modal: true, detail: 'The agent\'s write would replace your changes. Keep yours to refuse the write; the agent is told to read the file again.' },
      overwrite,
      'Keep Mine',
    );
    return choice === overwrite;
  },
  async allowExecutionControlWrite(path, reason) {
    const allow = 'Allow This Write';
    const choice = await vscode.window.showWarningMessage(
      `The agent wants to change ${shownPath(path)}, which controls what runs.`,
      { modal: true, detail: `${reason}.\n\nTandem asks every time for such files. Review the change before allowing it.` },
      allow,
    );
    return choice === allow;
  },
};
