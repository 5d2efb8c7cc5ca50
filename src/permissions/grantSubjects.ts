/**
 * What a remembered "always" covers beyond paths: the exact command for a command, the site for a
 * fetch. Read from the call's raw input, never from its title: the title is the agent's wording,
 * and two calls titled alike can run different things.
 */
import type { ToolCallView } from '../thread/entries';

/** The shells agents wrap a command in (Codex sends `["bash", "-lc", "npm test"]`). */
const shells = new Set(['bash', 'sh', 'zsh', 'dash', '/bin/bash', '/bin/sh', '/bin/zsh', '/usr/bin/bash']);
const commandKeys = ['command', 'cmd', 'commandLine', 'command_line'];
const urlKeys = ['url', 'urls', 'uri', 'href'];

function parsedInput(tool: ToolCallView): Record<string, unknown> | null {
  if (!tool.rawInput) return null;
  try {
    const input: unknown = JSON.parse(tool.rawInput);
    return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Runs of blanks outside quotes become one space; quoted text is kept byte for byte. */
export function normalizeCommand(command: string): string {
  let out = '';
  let quote: string | null = null;
  let blank = false;
  for (let i = 0; i < command.length; i++) {
    const char = command[i] ?? '';
    if (quote === null && /\s/.test(char)) {
      blank = true;
      continue;
    }
    if (blank && out) out += ' ';
    blank = false;
    out += char;
    if (char === '\\' && quote !== "'" && i + 1 < command.length) out += command[++i] ?? '';
    else if (quote === null && (char === '"' || char === "'")) quote = char;
    else if (char === quote) quote = null;
  }
  return out;
}

const shellQuoted = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** The command a call runs, normalized; null when its raw input names none. */
export function commandOf(tool: ToolCallView): string | null {
  const input = parsedInput(tool);
  const value = commandKeys.map((key) => input?.[key]).find((candidate) => candidate !== undefined);
  if (typeof value === 'string') return normalizeCommand(value) || null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((arg): arg is string => typeof arg === 'string')) return null;
  const [program = '', flag = '', script] = value;
  if (value.length === 3 && shells.has(program) && /^-l?c$/.test(flag) && script !== undefined) return normalizeCommand(script) || null;
  return value.map(shellQuoted).join(' ');
}

/** Every site a fetch names, as origins (`https://host:port`); empty when it names none. */
export function fetchOrigins(tool: ToolCallView): string[] {
  const input = parsedInput(tool);
  const named = urlKeys.flatMap((key) => [input?.[key]].flat()).filter((url): url is string => typeof url === 'string');
  // A URL anywhere else in the input (Gemini's web_fetch puts them in its prompt) counts too.
  const mentioned = tool.rawInput?.match(/\bhttps?:\/\/[^\s"'<>\\)]+/gi) ?? [];
  const origins = new Set<string>();
  for (const url of [...named, ...mentioned]) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      origins.add(url);
    }
  }
  return [...origins];
}

/**
 * What a grant for this call is keyed by: the command, the one site of a fetch, '' for file tools
 * (any path inside the workspace), the title for other tools; null when it cannot be told, so
 * nothing is remembered.
 */
export function grantSubject(tool: ToolCallView, fileKind: boolean): string | null {
  if (fileKind) return '';
  if (tool.toolKind === 'execute') return commandOf(tool);
  if (tool.toolKind === 'fetch') {
    const origins = fetchOrigins(tool);
    return origins.length === 1 ? (origins[0] ?? null) : null;
  }
  return tool.title;
}
