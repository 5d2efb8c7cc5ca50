import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectProgram, ProjectProgramKind } from './projectPrograms';

/**
 * Programs a project defines as files of their own rather than as settings: plugins and tools
 * loaded as code, custom commands whose text runs shell, TOML configuration. The whole text is
 * the definition (by its hash), so any edit asks again.
 */

/** A project may hold any number of files; more than this many per folder are not listed one by one. */
const MAX_FILES = 200;
const MAX_DEPTH = 4;

/** Files under `dir` (relative to `root`) whose name ends with one of `endings`, as paths relative to `root`, depth first. */
function filesUnder(root: string, dir: string, endings: readonly string[], depth = 0): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory() && depth < MAX_DEPTH) found.push(...filesUnder(root, relative, endings, depth + 1));
    else if (entry.isFile() && endings.some((ending) => entry.name.endsWith(ending))) found.push(relative);
    if (found.length >= MAX_FILES) break;
  }
  return found.slice(0, MAX_FILES);
}

function readText(root: string, relative: string): string | null {
  try {
    return readFileSync(join(root, relative), 'utf8');
  } catch {
    return null;
  }
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Every file under `dirs` with one of `endings`: the agent loads each as code when it starts. */
export function codeFilePrograms(root: string, dirs: readonly string[], endings: readonly string[], kind: ProjectProgramKind, what: string): ProjectProgram[] {
  return dirs.flatMap((dir) => filesUnder(root, dir, endings)).flatMap((file): ProjectProgram[] => {
    const text = readText(root, file);
    return text === null ? [] : [{ kind, name: `${what} ${file}`, runs: `loads ${file} as code, with your permissions`, file, definition: digest(text) }];
  });
}

/**
 * Custom commands whose text runs shell when the user invokes them: `marker` finds each command
 * in the text (Claude Code's and OpenCode's !`cmd`, Gemini CLI's and Qwen Code's !{cmd}).
 */
export function shellCommandFilePrograms(root: string, dirs: readonly string[], endings: readonly string[], marker: RegExp): ProjectProgram[] {
  return dirs.flatMap((dir) => filesUnder(root, dir, endings)).flatMap((file): ProjectProgram[] => {
    const text = readText(root, file);
    const commands = text === null ? [] : [...text.matchAll(marker)].map((match) => match[1] ?? '');
    return commands.length > 0 ? [{ kind: 'custom-command', name: `custom command ${file} (runs shell when you use it)`, runs: commands.join(' ; '), file, definition: digest(text ?? '') }] : [];
  });
}

/** Claude Code and OpenCode: !`command` in a command's markdown. */
export const backtickShell = /!`([^`\n]+)`/g;
/** Gemini CLI and Qwen Code: !{command} in a command's TOML prompt. */
export const braceShell = /!\{([^}]*)\}/g;

/** Lines of Codex's TOML that name programs: servers, their commands, `notify`, hooks. */
const codexProgramLine = /^\s*(\[\[?\s*(mcp_servers|hooks)\b.*|(command|args|notify|env)\s*=.*)$/;

/**
 * Codex reads `.codex/config.toml` in a project it trusts (codex-acp trusts the session's folder).
 * Without a TOML reader the file is one definition, shown by its lines that name programs.
 */
export function codexConfigPrograms(root: string): ProjectProgram[] {
  const file = '.codex/config.toml';
  const text = readText(root, file);
  if (text === null) return [];
  const lines = text.split(/\r?\n/).filter((line) => codexProgramLine.test(line)).map((line) => line.trim());
  return lines.length > 0 ? [{ kind: 'agent-config', name: 'Codex project configuration', runs: lines.join(' | '), file, definition: digest(text) }] : [];
}
