import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseMcpServers, readWorkspaceMcpServers, workspaceMcpFile, type McpServerOffer } from '../mcpServers';
import type { Logger } from '../../util/logger';
import { createMcpConsent } from '../../permissions/vscode/mcpConsent';
import { SETTINGS } from '../../contract/ids';

/**
 * The MCP servers a session may pass: Tandem's setting (application scope, so only the user sets
 * it) as it is, then each of `roots`' `.vscode/mcp.json`, whose servers only pass once the user
 * allowed that exact definition there.
 */
export function createMcpServerSource(context: vscode.ExtensionContext, roots: () => readonly string[], logger: Logger): () => Promise<McpServerOffer> {
  const consent = createMcpConsent(context);
  return () => {
    const fromSettings = parseMcpServers(vscode.workspace.getConfiguration().get<unknown>(SETTINGS.mcpServers) ?? {}, SETTINGS.mcpServers);
    const fromFolders = roots().map((root) => {
      const label = vscode.workspace.asRelativePath(join(root, workspaceMcpFile));
      return readWorkspaceMcpServers(root, label);
    });
    for (const reason of [...fromSettings.skipped, ...fromFolders.flatMap((found) => found.skipped)]) logger.warn(`[mcp] ${reason}`);
    return consent.offer(fromSettings.choices, fromFolders.flatMap((found) => found.servers));
  };
}
