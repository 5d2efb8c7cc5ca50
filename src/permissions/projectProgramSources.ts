import { agentFamily, type AgentFamily, type AgentIdentity, type ProjectProgram } from './projectPrograms';
import { backtickShell, braceShell, codeFilePrograms, codexConfigPrograms, shellCommandFilePrograms } from './projectProgramFiles';
import { claudePluginPrograms, commandArrayPrograms, commandSettingPrograms, hookPrograms, mcpServerPrograms, openCodeMcpPrograms, openCodePluginPrograms } from './projectProgramSettings';
import { projectRuleFiles } from './projectRules';
import { readProjectSettingsFiles } from './projectSettingsFiles';

/**
 * Each agent's own list of project files that make it run programs, as its sources read them
 * (claude-agent-acp with the Claude Agent SDK, Gemini CLI 0.61, Qwen Code 0.24, OpenCode 1.18,
 * codex-acp 2.6). Files outside the folder (a parent's, the user's own) are the user's, not the project's.
 */
const claudeCommandSettings = ['statusLine.command', 'apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'gcpAuthRefresh', 'otelHeadersHelper', 'fileSuggestion.command'];
const geminiCommandSettings = ['tools.discoveryCommand', 'tools.callCommand', 'toolDiscoveryCommand', 'toolCallCommand'];

function claudePrograms(cwd: string): ProjectProgram[] {
  const servers = readProjectSettingsFiles([cwd], ['.mcp.json']).flatMap((file) => mcpServerPrograms(file.json.mcpServers, file.label));
  const settings = readProjectSettingsFiles([cwd], projectRuleFiles).flatMap((file) => [
    ...hookPrograms(file),
    ...commandSettingPrograms(file.json, file.label, claudeCommandSettings),
    ...claudePluginPrograms(file.json, file.label),
  ]);
  return [...servers, ...settings, ...shellCommandFilePrograms(cwd, ['.claude/commands'], ['.md'], backtickShell)];
}

/** Gemini CLI and Qwen Code (a fork of it) share the settings shape, under their own folder. */
function geminiShapedPrograms(cwd: string, folder: '.gemini' | '.qwen'): ProjectProgram[] {
  const settings = readProjectSettingsFiles([cwd], [`${folder}/settings.json`]).flatMap((file) => [
    ...mcpServerPrograms(file.json.mcpServers, file.label),
    ...hookPrograms(file),
    ...commandSettingPrograms(file.json, file.label, folder === '.qwen' ? [...geminiCommandSettings, 'statusLine.command'] : geminiCommandSettings),
  ]);
  return [...settings, ...shellCommandFilePrograms(cwd, [`${folder}/commands`], ['.toml', '.md'], braceShell)];
}

function qwenPrograms(cwd: string): ProjectProgram[] {
  // Qwen Code reads Claude Code's `.mcp.json` as its project servers too.
  const servers = readProjectSettingsFiles([cwd], ['.mcp.json']).flatMap((file) => mcpServerPrograms(file.json.mcpServers, file.label));
  return [...servers, ...geminiShapedPrograms(cwd, '.qwen')];
}

const openCodeConfigFiles = ['opencode.json', 'opencode.jsonc', '.opencode/opencode.json', '.opencode/opencode.jsonc'];

function openCodePrograms(cwd: string): ProjectProgram[] {
  const config = readProjectSettingsFiles([cwd], openCodeConfigFiles).flatMap((file) => [
    ...openCodeMcpPrograms(file.json.mcp, file.label),
    ...openCodePluginPrograms(file.json, file.label),
    ...commandArrayPrograms(file.json.formatter, file.label, 'formatter', 'formatter'),
    ...commandArrayPrograms(file.json.lsp, file.label, 'language-server', 'language server'),
  ]);
  const code = ['.js', '.mjs', '.ts'];
  return [
    ...config,
    ...codeFilePrograms(cwd, ['.opencode/plugin', '.opencode/plugins'], code, 'plugin', 'plugin'),
    ...codeFilePrograms(cwd, ['.opencode/tool', '.opencode/tools'], code, 'tool', 'custom tool'),
    ...shellCommandFilePrograms(cwd, ['.opencode/command', '.opencode/commands'], ['.md'], backtickShell),
  ];
}

const readers: Record<AgentFamily, (cwd: string) => ProjectProgram[]> = {
  claude: claudePrograms,
  gemini: (cwd) => geminiShapedPrograms(cwd, '.gemini'),
  qwen: qwenPrograms,
  opencode: openCodePrograms,
  codex: codexConfigPrograms,
};

/** Every program `agent` would run because of the files of `cwd`; none for an agent Tandem does not know. */
export function listProjectPrograms(agent: AgentIdentity, cwd: string): ProjectProgram[] {
  const family = agentFamily(agent);
  return family ? readers[family](cwd) : [];
}

/** How an agent is started without its project's settings, where it offers a way. */
export interface IgnoreProjectSettings {
  /** What the user is told it does. */
  effect: string;
  /** Added to the agent's environment. */
  env?: Record<string, string>;
  /** Sent as `_meta` with session/new, load and resume. */
  sessionMeta?: Record<string, unknown>;
}

const ignoreSwitches: Partial<Record<AgentFamily, IgnoreProjectSettings>> = {
  // The Agent SDK's `settingSources` without project and local; `strictMcpConfig` leaves out `.mcp.json` (and only takes Tandem's servers).
  claude: {
    effect: 'Claude Code reads only your user settings and takes only the MCP servers Tandem passes: the project\'s .claude settings, hooks, plugins and .mcp.json are left out.',
    sessionMeta: { claudeCode: { options: { settingSources: ['user'], strictMcpConfig: true } } },
  },
  // An untrusted workspace: Gemini CLI loads none of its workspace settings.
  gemini: { effect: 'Gemini CLI treats the folder as untrusted and loads none of its .gemini settings.', env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } },
  opencode: { effect: 'OpenCode skips the project\'s opencode.json and .opencode folder.', env: { OPENCODE_DISABLE_PROJECT_CONFIG: '1' } },
};

/** The agent's own switch to ignore project settings; null where it has none (Qwen Code, Codex). */
export function ignoreProjectSettingsFor(agent: AgentIdentity): IgnoreProjectSettings | null {
  const family = agentFamily(agent);
  return (family && ignoreSwitches[family]) ?? null;
}
