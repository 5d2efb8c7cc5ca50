import * as vscode from 'vscode';
import { linkTarget, refusalMessage } from '../panel/linkPolicy';
import { assertNever } from '../util/assertNever';
import type { Logger } from '../util/logger';

/**
 * Links in agent text open only on the user's click, and only where linkTarget allows: web
 * links through VS Code (which asks before leaving for an untrusted domain), workspace files in
 * the editor. A refused link is named to the user with the reason, so a dead click is explained.
 */
export async function openAgentLink(href: string, folders: readonly string[], logger: Logger): Promise<void> {
  const target = linkTarget(href, { root: folders[0] ?? null, folders: [...folders] });
  switch (target.kind) {
    case 'web':
      await vscode.env.openExternal(vscode.Uri.parse(target.url, true));
      return;
    case 'refused': {
      const message = refusalMessage(href, target.reason);
      logger.warn(`[links] ${message}`);
      void vscode.window.showWarningMessage(message);
      return;
    }
    case 'file':
      return openWorkspaceFile(vscode.Uri.file(target.path), target.line);
    default:
      assertNever(target, 'link target');
  }
}

/** A folder cannot be shown as a document: it is revealed in the explorer instead. */
async function openWorkspaceFile(uri: vscode.Uri, line: number | null): Promise<void> {
  const position = Math.max(0, (line ?? 1) - 1);
  try {
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, 0, position, 0), preview: true });
  } catch {
    await vscode.commands.executeCommand('revealInExplorer', uri);
  }
}
