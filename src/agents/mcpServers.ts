import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { parseJsonc } from '../util/jsonc';
import { stringRecord } from '../util/untrustedJson';

/**
 * MCP servers the user configured, in Tandem's setting (`tandem.mcpServers`) or VS Code's
 * `.vscode/mcp.json` (`{ "servers": { name: { type, command, args, env, url, headers } } }`),
 * turned into what `session/new` takes and filtered by what the agent supports.
 */
export interface McpServerChoice {
  server: acp.McpServer;
  source: string;
}

/** A server defined by a file of the project: it runs only after the user said yes to this exact definition there. */
export interface ProjectMcpServer extends McpServerChoice {
  /** The folder whose file defines it: answers are remembered per folder. */
  workspace: string;
}

/** A project server that is not passed to the agent: the user declined it, or has not answered yet. */
export interface WithheldMcpServer {
  name: string;
  source: string;
  why: 'declined' | 'unanswered';
}

/** What a session may pass: the user's own servers and the project servers the user allowed. */
export interface McpServerOffer {
  choices: McpServerChoice[];
  withheld: WithheldMcpServer[];
}

export interface McpResolution {
  servers: acp.McpServer[];
  /** One sentence per server that was left out, and why. */
  skipped: string[];
}

/** `{ NAME: "value" }` as ACP's `[{ name, value }]`. */
function pairs(value: unknown): { name: string; value: string }[] {
  return Object.entries(stringRecord(value)).map(([name, item]) => ({ name, value: item }));
}

const unresolvedVariable = /\$\{(input|command):[^}]+\}/;

/** Reads one `{ name: config }` map; entries that cannot be used are reported, not dropped silently. */
export function parseMcpServers(raw: unknown, source: string): { choices: McpServerChoice[]; skipped: string[] } {
  const choices: McpServerChoice[] = [];
  const skipped: string[] = [];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { choices, skipped };
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const entry = (value ?? {}) as Record<string, unknown>;
    if (unresolvedVariable.test(JSON.stringify(entry))) {
      skipped.push(`${name} (${source}) uses \${input:…} or \${command:…} variables, which only VS Code's own MCP support can fill in.`);
      continue;
    }
    const type = typeof entry.type === 'string' ? entry.type : typeof entry.url === 'string' ? 'http' : 'stdio';
    if ((type === 'http' || type === 'sse') && typeof entry.url === 'string') {
      choices.push({ source, server: { type, name, url: entry.url, headers: pairs(entry.headers) } });
    } else if (type === 'stdio' && typeof entry.command === 'string') {
      const args = Array.isArray(entry.args) ? entry.args.filter((arg): arg is string => typeof arg === 'string') : [];
      choices.push({ source, server: { name, command: entry.command, args, env: pairs(entry.env) } });
    } else {
      skipped.push(`${name} (${source}) needs a "command" (stdio) or a "url" (http, sse).`);
    }
  }
  return { choices, skipped };
}

/** Where VS Code keeps a folder's MCP servers, relative to the folder. */
export const workspaceMcpFile = join('.vscode', 'mcp.json');

/**
 * The servers of one folder's `.vscode/mcp.json` (`{ "servers": { … } }`, comments allowed);
 * nothing when the folder has none. `label` names the file in messages.
 */
export function readWorkspaceMcpServers(folder: string, label: string): { servers: ProjectMcpServer[]; skipped: string[] } {
  let text: string;
  try {
    text = readFileSync(join(folder, workspaceMcpFile), 'utf8');
  } catch {
    return { servers: [], skipped: [] };
  }
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    return { servers: [], skipped: [`${label} is not valid JSON (${String(error)}).`] };
  }
  const parsed = parseMcpServers(json && typeof json === 'object' ? (json as { servers?: unknown }).servers : undefined, label);
  return { servers: parsed.choices.map((choice) => ({ ...choice, workspace: folder })), skipped: parsed.skipped };
}

/** Keeps what the agent can use: stdio always, http and sse only when it says so. First name wins. */
export function serversForAgent(choices: readonly McpServerChoice[], capabilities: acp.McpCapabilities | undefined): McpResolution {
  const servers: acp.McpServer[] = [];
  const skipped: string[] = [];
  const names = new Set<string>();
  for (const { server, source } of choices) {
    if (names.has(server.name)) continue;
    const transport = 'type' in server ? server.type : 'stdio';
    if ((transport === 'http' && !capabilities?.http) || (transport === 'sse' && !capabilities?.sse)) {
      skipped.push(`${server.name} (${source}) is an ${transport} server and this agent only supports ${['stdio', capabilities?.http && 'http', capabilities?.sse && 'sse'].filter(Boolean).join(', ')} servers.`);
      continue;
    }
    names.add(server.name);
    servers.push(server);
  }
  return { servers, skipped };
}
