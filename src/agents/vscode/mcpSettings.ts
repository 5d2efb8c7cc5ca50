import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseMcpServers, readWorkspaceMcpServers, workspaceMcpFile, type McpServerOffer } from '../mcpServers';
import type { Logger } from '../../util/logger';
import { createMcpConsent } from '../../permissions/vscode/mcpConsent';

export const MCP_SETTING = 'tandem.mcpServers';

/**
 * The MCP servers a session may pass: Tandem's setting (application scope, so only the user sets
 * it) as it is, then each folder's `.vscode/mcp.json`, whose servers only pass once the user
 * allowed that exact definition there.
 */
export function createMcpServerSource(context: vscode.ExtensionContext, logger: Logger): () => Promise<McpServerOffer> {
  const consent = createMcpConsent(context);
  return () => {
    const fromSettings = parseMcpServers(vscode.workspace.getConfiguration().get<unknown>(MCP_SETTING) ?? {}, MCP_SETTING);
    const fromFolders = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const label = vscode.workspace.asRelativePath(join(folder.uri.fsPath, workspaceMcpFile));
      return readWorkspaceMcpServers(folder.uri.fsPath, label);
    });
    for (const reason of [...fromSettings.skipped, ...fromFolders.flatMap((found) => found.skipped)]) logger.warn(`[mcp] ${reason}`);
    return consent.offer(fromSettings.choices, fromFolders.flatMap((found) => found.servers));
  };
}
