import { basename } from 'node:path';
import { redactValue } from '../redaction/redact';
import { isRecord } from '../util/untrustedJson';
import { visibleText } from '../util/visibleText';
import { projectRuleFiles } from './projectRules';
import { readProjectSettingsFiles, type ProjectSettingsFile } from './projectSettingsFiles';

/**
 * Hooks are commands an agent runs by itself at its events (SessionStart runs as the session
 * opens, before any prompt), read from the project's own settings files. Tandem cannot stop an
 * agent from reading its settings, so it shows what the agent will run before the session starts.
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

/** Who the agent is: its definition, and what it called itself in `initialize`. */
export interface AgentIdentity {
  id: string;
  command: string;
  name?: string | null;
}

/**
 * Project files each agent reads hooks from. Claude Code and Gemini CLI share the shape
 * `{ hooks: { Event: [{ matcher?, hooks: [{ type: "command", command }] }] } }`.
 */
const hookSources: readonly { agent: RegExp; files: readonly string[] }[] = [
  { agent: /claude/i, files: projectRuleFiles },
  { agent: /gemini/i, files: ['.gemini/settings.json'] },
];

/** An untrusted file may list any number; the notice names at most this many. */
const MAX_HOOKS = 50;
const MAX_COMMAND = 200;

/** The project settings files `agent` reads hooks from; none for an agent not known to have project hooks. */
export function hookFilesFor(agent: AgentIdentity): readonly string[] {
  const names = [agent.id, basename(agent.command), agent.name ?? ''];
  return hookSources.find((source) => names.some((name) => source.agent.test(name)))?.files ?? [];
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

/** The project hooks `agent` will run in a session whose folder is `cwd` (what the fidelity report lists too). */
export function readProjectHooks(agent: AgentIdentity, cwd: string): ProjectHook[] {
  return readProjectSettingsFiles([cwd], hookFilesFor(agent)).flatMap((file) => parseProjectHooks(file));
}

function shownCommand(command: string): string {
  const oneLine = visibleText(command);
  const cut = oneLine.length > MAX_COMMAND ? `${oneLine.slice(0, MAX_COMMAND)}…` : oneLine;
  return String(redactValue(cut));
}

/** One notice: each command with its event and file, so the user sees what runs before anything does. */
export function projectHooksNotice(agentLabel: string, hooks: readonly ProjectHook[]): string {
  const listed = hooks.slice(0, MAX_HOOKS).map((hook) => `${hook.event}${hook.matcher ? ` (${hook.matcher})` : ''}: ${shownCommand(hook.command)} [${hook.file}]`);
  const more = hooks.length > MAX_HOOKS ? `; and ${hooks.length - MAX_HOOKS} more` : '';
  return `${agentLabel} will run these project hooks: ${listed.join('; ')}${more}. They come from the project's settings files; Tandem does not ask before the agent runs them.`;
}
