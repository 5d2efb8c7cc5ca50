import * as vscode from 'vscode';
import { placeText } from '../../contract/reviewProgress';
import { MAX_COMMENT_CHARS, reviewFeedbackChangeSchema } from '../../contract/reviewMessages';
import { placeOf } from '../comments/reviewCommentNote';
import type { ReviewFeedback } from '../comments/reviewFeedback';
import { targetHunk } from './reviewCommands';
import type { ReviewController } from './reviewController';
import { COMMANDS } from '../../contract/ids';

/** The comment as the panel's own message would carry it, checked the same way; null when it is not one. */
function parseComment(path: string, hunkId: string, text: string): { path: string; hunkId: string; text: string } | null {
  const parsed = reviewFeedbackChangeSchema.safeParse({ kind: 'addComment', path, hunkId, text });
  return parsed.success && parsed.data.kind === 'addComment' ? parsed.data : null;
}

/**
 * "Comment" on a pending hunk from the editor (its CodeLens passes the hunk; from the palette,
 * the hunk at the cursor): the comment joins the list above the panel's composer for the
 * conversation in front, exactly like one written in the panel, and goes with its next message.
 */
export function registerCommentCommand(review: ReviewController, feedback: ReviewFeedback): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.commentHunk, async (path?: string, hunkId?: string) => {
    const at = targetHunk(review, path, hunkId);
    const hunk = at && review.changes.file(at.path)?.hunks.find((candidate) => candidate.id === at.hunkId);
    if (!at || !hunk) return vscode.window.showInformationMessage(vscode.l10n.t('There is no pending agent change here to comment on.'));
    const where = `${vscode.workspace.asRelativePath(at.path, false)}, ${placeText(placeOf(hunk))}`;
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('Comment for the agent on {0}', where),
      prompt: vscode.l10n.t('Sent with your next message in Tandem, with the file, the lines and the change.'),
      placeHolder: vscode.l10n.t('What should the agent do about this change?'),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim().length > MAX_COMMENT_CHARS ? vscode.l10n.t('A comment can have at most {0} characters.', MAX_COMMENT_CHARS) : null),
    });
    const comment = text === undefined ? null : parseComment(at.path, at.hunkId, text);
    if (!comment) return undefined;
    if (!feedback.addComment(comment.path, comment.hunkId, comment.text)) {
      return vscode.window.showWarningMessage(vscode.l10n.t('The comment was not added: the change is no longer pending, or the next message already carries as many comments as it can.'));
    }
    return vscode.window.setStatusBarMessage(`$(comment) ${vscode.l10n.t('Comment on {0} added: it goes with your next message.', where)}`, 5000);
  });
}
