import { isRecord } from '../util/untrustedJson';
import type { ProjectSettingsFile } from './projectSettingsFiles';

/**
 * Hooks are commands an agent runs by itself at its events (SessionStart runs as the session
 * opens, before any prompt), read from the project's own settings files. Claude Code, Gemini CLI
 * and Qwen Code share the shape
 * `{ hooks: { Event: [{ matcher?, hooks: [{ type: "command", command }] }] } }`.
 */
export interface ProjectHook {
  /** The agent's event, e.g. SessionStart, PreToolUse, BeforeTool. */
  event: string;
  /** Which tools or triggers it runs for; null for all. */
  matcher: string | null;
  command: string;
  /** The settings file it is defined in, relative to its folder. */
  file: string;
}

function commandsOf(group: unknown): string[] {
  if (!isRecord(group)) return [];
  // A group holds its commands in `hooks`; a bare command entry is read as a group of one.
  const entries = Array.isArray(group.hooks) ? group.hooks : [group];
  return entries.flatMap((entry) => (isRecord(entry) && (entry.type === undefined || entry.type === 'command') && typeof entry.command === 'string' ? [entry.command] : []));
}

/** The command hooks one settings file defines, in file order. */
export function parseProjectHooks({ json, label }: Pick<ProjectSettingsFile, 'json' | 'label'>): ProjectHook[] {
  if (!isRecord(json.hooks)) return [];
  const hooks: ProjectHook[] = [];
  for (const [event, groups] of Object.entries(json.hooks)) {
    // Gemini CLI keeps switches such as `enabled` next to the events.
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const matcher = isRecord(group) && typeof group.matcher === 'string' && group.matcher !== '' && group.matcher !== '*' ? group.matcher : null;
      for (const command of commandsOf(group)) hooks.push({ event, matcher, command, file: label });
    }
  }
  return hooks;
}
