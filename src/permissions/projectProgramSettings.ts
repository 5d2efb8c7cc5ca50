import { isRecord, stringArray } from '../util/untrustedJson';
import { parseProjectHooks } from './projectHooks';
import type { ProjectProgram } from './projectPrograms';
import type { ProjectSettingsFile } from './projectSettingsFiles';

/**
 * The programs one agent settings file (untrusted JSON) makes its agent run, each as the file
 * defines it. Every reader keeps what it does not understand out of `runs` but in `definition`
 * where it decides what runs.
 */

/** An untrusted file may define any number; more than this many of one kind are not listed one by one. */
const MAX_PER_KIND = 200;

const plainWord = /^[\w@%+=:,./-]+$/;

/** A command and its arguments as one line, quoting the words a shell would split. */
export function commandLine(words: readonly string[]): string {
  return words.map((word) => (plainWord.test(word) ? word : JSON.stringify(word))).join(' ');
}

function envNames(env: unknown): string {
  const names = isRecord(env) ? Object.keys(env) : [];
  return names.length > 0 ? ` (with ${names.join(', ')} set)` : '';
}

/**
 * MCP servers as Claude Code (`.mcp.json`), Gemini CLI and Qwen Code write them:
 * `{ name: { command, args, env, cwd } }`; a URL server runs nothing here, unless a
 * `headersHelper` command makes its headers.
 */
export function mcpServerPrograms(servers: unknown, file: string): ProjectProgram[] {
  if (!isRecord(servers)) return [];
  return Object.entries(servers).slice(0, MAX_PER_KIND).flatMap(([name, server]): ProjectProgram[] => {
    if (!isRecord(server)) return [];
    if (typeof server.command === 'string') {
      const runs = `${commandLine([server.command, ...stringArray(server.args)])}${envNames(server.env)}`;
      return [{ kind: 'mcp-server', name: `MCP server "${name}"`, runs, file, definition: server }];
    }
    if (typeof server.headersHelper === 'string') return [{ kind: 'mcp-server', name: `MCP server "${name}" headers helper`, runs: server.headersHelper, file, definition: server }];
    return [];
  });
}

/** MCP servers as OpenCode writes them: `{ name: { type: "local", command: [program, ...args], environment } }`. */
export function openCodeMcpPrograms(servers: unknown, file: string): ProjectProgram[] {
  if (!isRecord(servers)) return [];
  return Object.entries(servers).slice(0, MAX_PER_KIND).flatMap(([name, server]): ProjectProgram[] => {
    if (!isRecord(server) || server.type !== 'local') return [];
    const words = stringArray(server.command);
    return words.length > 0 ? [{ kind: 'mcp-server', name: `MCP server "${name}"`, runs: `${commandLine(words)}${envNames(server.environment)}`, file, definition: server }] : [];
  });
}

/** Named entries whose `command` is a program with its arguments (OpenCode's formatters and language servers). */
export function commandArrayPrograms(entries: unknown, file: string, kind: ProjectProgram['kind'], what: string): ProjectProgram[] {
  if (!isRecord(entries)) return [];
  return Object.entries(entries).slice(0, MAX_PER_KIND).flatMap(([name, entry]): ProjectProgram[] => {
    const words = isRecord(entry) ? stringArray(entry.command) : [];
    return words.length > 0 ? [{ kind, name: `${what} "${name}"`, runs: `${commandLine(words)}${envNames(isRecord(entry) ? entry.environment : null)}`, file, definition: entry }] : [];
  });
}

/** Command hooks, for agents that write Claude Code's hook shape (Claude Code, Gemini CLI, Qwen Code). */
export function hookPrograms(settings: ProjectSettingsFile): ProjectProgram[] {
  return parseProjectHooks(settings).slice(0, MAX_PER_KIND).map((hook) => ({
    kind: 'hook',
    name: `${hook.event}${hook.matcher ? ` (${hook.matcher})` : ''} hook`,
    runs: hook.command,
    file: hook.file,
    definition: [hook.event, hook.matcher, hook.command],
  }));
}

/** Settings whose value is a shell command the agent runs by itself, by their path in the file (`statusLine.command`). */
export function commandSettingPrograms(json: Record<string, unknown>, file: string, paths: readonly string[]): ProjectProgram[] {
  return paths.flatMap((path): ProjectProgram[] => {
    let value: unknown = json;
    for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
    return typeof value === 'string' && value.trim() !== '' ? [{ kind: 'command-setting', name: path, runs: value, file, definition: value }] : [];
  });
}

/** Claude Code plugins the project turns on: each may bring its own hooks, servers and commands. */
export function claudePluginPrograms(json: Record<string, unknown>, file: string): ProjectProgram[] {
  const enabled = isRecord(json.enabledPlugins) ? Object.entries(json.enabledPlugins).filter(([, on]) => on === true).map(([id]) => id) : [];
  return enabled.slice(0, MAX_PER_KIND).map((id) => ({ kind: 'plugin', name: `plugin "${id}"`, runs: `the plugin ${id} (its hooks, MCP servers and commands)`, file, definition: [id, json.extraKnownMarketplaces ?? null] }));
}

/** OpenCode's `plugin` list: npm packages or files, loaded as code when it starts. */
export function openCodePluginPrograms(json: Record<string, unknown>, file: string): ProjectProgram[] {
  return stringArray(json.plugin).slice(0, MAX_PER_KIND).map((spec) => ({ kind: 'plugin', name: `plugin "${spec}"`, runs: `loads ${spec} as code`, file, definition: spec }));
}
