import * as vscode from 'vscode';
import type { Logger } from '../util/logger';

/**
 * Links in agent text open only on the user's click: web links through VS Code (which asks
 * before leaving for an untrusted domain), file links in the editor. Nothing else opens.
 */
export async function openAgentLink(href: string, workspaceRoot: string | null, logger: Logger): Promise<void> {
  const lineMatch = /#L(\d+)$/.exec(href);
  const target = lineMatch ? href.slice(0, lineMatch.index) : href;
  let uri: vscode.Uri | null = null;
  if (/^https?:\/\//i.test(target)) {
    await vscode.env.openExternal(vscode.Uri.parse(target, true));
    return;
  }
  if (/^file:\/\//i.test(target)) uri = vscode.Uri.parse(target, true);
  else if (target.startsWith('/')) uri = vscode.Uri.file(target);
  else if (workspaceRoot && !/^[a-z][a-z0-9+.-]*:/i.test(target)) uri = vscode.Uri.joinPath(vscode.Uri.file(workspaceRoot), target);
  if (!uri) {
    logger.warn(`refused to open link ${JSON.stringify(href.slice(0, 200))}`);
    return;
  }
  const line = lineMatch ? Math.max(0, Number(lineMatch[1]) - 1) : 0;
  try {
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0), preview: true });
  } catch {
    await vscode.commands.executeCommand('revealInExplorer', uri);
  }
}
