import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { redactValue } from '../redaction/redact';
import { visibleLines } from '../util/visibleText';

/**
 * A program that an agent runs because a file of the project says so (an MCP server, a hook, a
 * plugin, a custom command that runs shell...). A cloned repository chooses these, so the agent
 * may start in its folder only after the user said yes to each exact definition.
 */
export type ProjectProgramKind = 'mcp-server' | 'hook' | 'command-setting' | 'plugin' | 'custom-command' | 'tool' | 'formatter' | 'language-server' | 'agent-config';

export interface ProjectProgram {
  kind: ProjectProgramKind;
  /** What it is, as the user reads it: `SessionStart hook`, `MCP server "db"`, `apiKeyHelper`. */
  name: string;
  /** What runs, exactly as the file has it: a command line, or the file loaded as code. */
  runs: string;
  /** The file it is defined in, relative to the folder. */
  file: string;
  /** Everything that decides what runs; a change to any of it is a new definition. */
  definition: unknown;
}

/** Who the agent is, before it runs: its id and the program Tandem would start. */
export interface AgentIdentity {
  id: string;
  command: string;
  args?: readonly string[];
}

/** The agents whose project files Tandem knows. */
export type AgentFamily = 'claude' | 'gemini' | 'qwen' | 'opencode' | 'codex';

const familyNames: readonly (readonly [AgentFamily, RegExp])[] = [
  ['claude', /claude/i],
  ['gemini', /gemini/i],
  ['qwen', /qwen/i],
  ['opencode', /opencode/i],
  ['codex', /codex/i],
];

/** The family an agent belongs to, by its id, its program or a package among its arguments (`npx @google/gemini-cli`). */
export function agentFamily(agent: AgentIdentity): AgentFamily | null {
  const names = [agent.id, ...[agent.command, ...(agent.args ?? [])].map((word) => basename(word))];
  return familyNames.find(([, pattern]) => names.some((name) => pattern.test(name)))?.[0] ?? null;
}

/** Identifies one definition where it is defined; the same definition moved to another file is new. */
export function programFingerprint(program: ProjectProgram): string {
  return createHash('sha256').update(JSON.stringify([program.kind, program.name, program.file, program.definition])).digest('hex');
}

/** Its place, which a changed definition keeps: how "it changed since you answered" is known. */
export function programSlot(program: ProjectProgram): string {
  return `${program.kind}\n${program.file}\n${program.name}`;
}

/** A long definition is still named in full up to this many characters; the rest is counted. */
const MAX_SHOWN = 1000;

/** What the user is shown of `runs`: credentials removed, hidden characters visible, bounded. */
export function shownRuns(runs: string): string {
  // Characters that would hide or reorder what the user reads are written out, so the text shown is the text that runs.
  const visible = visibleLines(String(redactValue(runs)));
  return visible.length > MAX_SHOWN ? `${visible.slice(0, MAX_SHOWN)}… (${visible.length - MAX_SHOWN} more characters in the file)` : visible;
}

/** One line per program: what it is, what runs, where it is defined. */
export function describeProgram(program: ProjectProgram): string {
  return `${program.name} [${program.file}]: ${shownRuns(program.runs)}`;
}
