import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseMcpServers, type McpServerChoice } from '../agents/mcpServers';
import type { Logger } from '../util/logger';

export const MCP_SETTING = 'tandem.mcpServers';

/** The user's MCP servers: Tandem's setting first, then each folder's `.vscode/mcp.json`. */
export function readMcpServers(logger: Logger): McpServerChoice[] {
  const fromSettings = parseMcpServers(vscode.workspace.getConfiguration().get<unknown>(MCP_SETTING) ?? {}, MCP_SETTING);
  const choices = [...fromSettings.choices];
  const skipped = [...fromSettings.skipped];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const file = join(folder.uri.fsPath, '.vscode', 'mcp.json');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    try {
      // mcp.json allows comments and trailing commas (JSONC).
      const json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')) as { servers?: unknown };
      const parsed = parseMcpServers(json.servers, vscode.workspace.asRelativePath(file));
      choices.push(...parsed.choices);
      skipped.push(...parsed.skipped);
    } catch (error) {
      skipped.push(`${file} is not valid JSON (${String(error)}).`);
    }
  }
  for (const reason of skipped) logger.warn(`[mcp] ${reason}`);
  return choices;
}
