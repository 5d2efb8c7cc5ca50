/**
 * Programs a project plants for each agent, in every file kind that agent reads (its own list, as
 * its sources read it), written out by this harness independently of the code under test. Each
 * planted program has a distinctive text (its command, or its file for code loaded as is) that a
 * question must name before the user's yes counts for it.
 */
export type PlantingAgent = 'claude-code' | 'gemini' | 'qwen-code' | 'opencode' | 'codex';

export interface PlantedProgram {
  /** The file kind, as the row reports it. */
  kind: string;
  file: string;
  /** What a question must show for the user's yes to be about this program. */
  shows: string;
  /** Merged into the file's JSON object; absent for a file written as `text`. */
  json?: Record<string, unknown>;
  text?: string;
}

const hook = (event: string, command: string) => ({ hooks: { [event]: [{ matcher: '', hooks: [{ type: 'command', command }] }] } });
const server = (name: string, command: string) => ({ [name]: { command, args: ['--stdio'] } });

type Planter = (command: string, tag: string) => PlantedProgram;

/** Every file kind of each agent that makes it run a program. */
export const plantersByAgent: Record<PlantingAgent, Record<string, Planter>> = {
  'claude-code': {
    'claude .mcp.json server': (command, tag) => ({ kind: 'claude .mcp.json server', file: '.mcp.json', shows: command, json: { mcpServers: server(`s${tag}`, command) } }),
    'claude SessionStart hook': (command) => ({ kind: 'claude SessionStart hook', file: '.claude/settings.json', shows: command, json: hook('SessionStart', command) }),
    'claude local UserPromptSubmit hook': (command) => ({ kind: 'claude local UserPromptSubmit hook', file: '.claude/settings.local.json', shows: command, json: hook('UserPromptSubmit', command) }),
    'claude statusLine': (command) => ({ kind: 'claude statusLine', file: '.claude/settings.json', shows: command, json: { statusLine: { type: 'command', command } } }),
    'claude apiKeyHelper': (command) => ({ kind: 'claude apiKeyHelper', file: '.claude/settings.local.json', shows: command, json: { apiKeyHelper: command } }),
    'claude command with !`shell`': (command, tag) => ({ kind: 'claude command with !`shell`', file: `.claude/commands/c${tag}.md`, shows: command, text: `Run !\`${command}\` first` }),
  },
  gemini: {
    'gemini MCP server': (command, tag) => ({ kind: 'gemini MCP server', file: '.gemini/settings.json', shows: command, json: { mcpServers: server(`s${tag}`, command) } }),
    'gemini BeforeAgent hook': (command) => ({ kind: 'gemini BeforeAgent hook', file: '.gemini/settings.json', shows: command, json: hook('BeforeAgent', command) }),
    'gemini tool discovery command': (command) => ({ kind: 'gemini tool discovery command', file: '.gemini/settings.json', shows: command, json: { tools: { discoveryCommand: command } } }),
    'gemini command with !{shell}': (command, tag) => ({ kind: 'gemini command with !{shell}', file: `.gemini/commands/c${tag}.toml`, shows: command, text: `prompt = "Look: !{${command}}"` }),
  },
  'qwen-code': {
    'qwen SessionStart hook': (command) => ({ kind: 'qwen SessionStart hook', file: '.qwen/settings.json', shows: command, json: hook('SessionStart', command) }),
    'qwen MCP server': (command, tag) => ({ kind: 'qwen MCP server', file: '.qwen/settings.json', shows: command, json: { mcpServers: server(`s${tag}`, command) } }),
    'qwen .mcp.json server': (command, tag) => ({ kind: 'qwen .mcp.json server', file: '.mcp.json', shows: command, json: { mcpServers: server(`q${tag}`, command) } }),
  },
  opencode: {
    'opencode local MCP server': (command, tag) => ({ kind: 'opencode local MCP server', file: 'opencode.json', shows: command, json: { mcp: { [`s${tag}`]: { type: 'local', command: [command, '--stdio'] } } } }),
    'opencode plugin file': (command, tag) => ({ kind: 'opencode plugin file', file: `.opencode/plugin/p${tag}.js`, shows: `.opencode/plugin/p${tag}.js`, text: `export const Plugin = async ({ $ }) => { await $\`${command}\`; return {}; };` }),
    'opencode formatter': (command, tag) => ({ kind: 'opencode formatter', file: '.opencode/opencode.jsonc', shows: command, json: { formatter: { [`f${tag}`]: { command: [command, '$FILE'] } } } }),
  },
  codex: {
    'codex config.toml server': (command, tag) => ({ kind: 'codex config.toml server', file: '.codex/config.toml', shows: command, text: `[mcp_servers.s${tag}]\ncommand = "${command}"\n` }),
  },
};

/** Each agent's own switch to ignore its project's settings, as the agent reads it: the launch must carry it. */
export const expectedSwitch: Record<PlantingAgent, { env?: Record<string, string>; sessionMeta?: unknown } | null> = {
  'claude-code': { sessionMeta: { claudeCode: { options: { settingSources: ['user'], strictMcpConfig: true } } } },
  gemini: { env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } },
  opencode: { env: { OPENCODE_DISABLE_PROJECT_CONFIG: '1' } },
  'qwen-code': null,
  codex: null,
};

function merge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    if (Array.isArray(existing) && Array.isArray(value)) into[key] = [...existing, ...value];
    else if (existing && typeof existing === 'object' && value && typeof value === 'object') into[key] = merge({ ...(existing as Record<string, unknown>) }, value as Record<string, unknown>);
    else into[key] = value;
  }
  return into;
}

/** The files (relative path -> text) that plant `programs`; texts of one file are joined. */
export function plantedFiles(programs: readonly PlantedProgram[]): Record<string, string> {
  const json = new Map<string, Record<string, unknown>>();
  const text = new Map<string, string>();
  for (const program of programs) {
    if (program.json) json.set(program.file, merge(json.get(program.file) ?? {}, program.json));
    else text.set(program.file, `${text.get(program.file) ?? ''}${program.text ?? ''}\n`);
  }
  return { ...Object.fromEntries(text), ...Object.fromEntries([...json].map(([file, object]) => [file, JSON.stringify(object, null, 2)])) };
}

export const plantingAgents = Object.keys(plantersByAgent) as PlantingAgent[];

/** 1 to 3 programs of distinct random kinds for `agent` (a setting holds one command), their commands unique to `tag`. */
export function randomPrograms(agent: PlantingAgent, tag: string, next: () => number): PlantedProgram[] {
  const planters = [...Object.values(plantersByAgent[agent])];
  return Array.from({ length: Math.min(planters.length, 1 + Math.floor(next() * 3)) }, (_, n) => {
    const [plant] = planters.splice(Math.floor(next() * planters.length), 1);
    return plant ? plant(`./hooks/run-${tag}-${n}.sh`, `${tag.replace(/\W/g, '')}x${n}`) : null;
  }).filter((program): program is PlantedProgram => program !== null);
}
