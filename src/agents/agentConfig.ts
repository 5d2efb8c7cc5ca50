import { stringArray, stringRecord } from '../util/untrustedJson';
import { SETTINGS } from '../util/ids';

/**
 * Agent servers as users configure them in `tandem.agents`, shaped like Zed's `agent_servers`
 * so an entry can be copied across: `command`, `args`, `env`, plus the default mode and
 * default config options (snake_case as in Zed, or camelCase).
 */
export interface AgentServerSettings {
  label?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  default_mode?: string;
  defaultMode?: string;
  default_config_options?: Record<string, string>;
  defaultConfigOptions?: Record<string, string>;
  /** false: each conversation starts its own process (for agents that hold one session per process). */
  share_process?: boolean;
  shareProcess?: boolean;
}

export interface AgentDefinition {
  id: string;
  label: string;
  description: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  defaultMode: string | null;
  defaultConfigOptions: Record<string, string>;
  /** Said to the user when the command cannot be found. */
  installHint: string | null;
  /** Auth method to send before `session/new` when the agent's key comes from the environment. */
  authMethodWhenKeyInEnv: { envVar: string; methodId: string } | null;
  /** Several conversations with this agent share one process (ACP allows many sessions per connection). */
  shareProcess?: boolean;
}

export const DEMO_AGENT_ID = 'demo';

type Preset = Omit<AgentDefinition, 'defaultMode' | 'defaultConfigOptions'>;

export function builtInPresets(demoAgentScript: string, nodeExecutable: string): Preset[] {
  return [
    {
      id: DEMO_AGENT_ID,
      label: 'Demo agent (offline)',
      description: 'A scripted agent shipped with Tandem. It needs no account and no network.',
      command: nodeExecutable,
      args: [demoAgentScript],
      // VS Code's own executable only behaves as Node when asked to.
      env: { ELECTRON_RUN_AS_NODE: '1' },
      installHint: null,
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      description: "Anthropic's Claude Code through its ACP adapter.",
      command: 'claude-agent-acp',
      args: [],
      env: {},
      installHint: 'Install it with `npm install -g @agentclientprotocol/claude-agent-acp`, then sign in with `claude` or set ANTHROPIC_API_KEY.',
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'gemini',
      label: 'Gemini CLI',
      description: "Google's Gemini CLI in ACP mode.",
      command: 'gemini',
      args: ['--acp'],
      env: {},
      installHint: 'Install it with `npm install -g @google/gemini-cli`, then sign in with `gemini` or set GEMINI_API_KEY.',
      authMethodWhenKeyInEnv: { envVar: 'GEMINI_API_KEY', methodId: 'gemini-api-key' },
    },
    {
      id: 'codex',
      label: 'Codex',
      description: "OpenAI's Codex through its ACP adapter (codex-acp, which brings its own Codex).",
      command: 'codex-acp',
      args: [],
      env: {},
      installHint: 'Install it with `npm install -g @agentclientprotocol/codex-acp`, then sign in from the panel (an OpenAI API key, kept in VS Code\'s secret storage, or ChatGPT) or beforehand with `codex-acp login`.',
      // Not from the environment: an API-key sign-in replaces the login Codex keeps in ~/.codex (a
      // ChatGPT one included), so it is sent only when the user chose it in the panel.
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'opencode',
      label: 'OpenCode',
      description: 'OpenCode in ACP mode (`opencode acp`), with the providers and models of its own configuration.',
      command: 'opencode',
      args: ['acp'],
      env: {},
      installHint: 'Install it with `npm install -g opencode-ai`, then sign in to a provider with `opencode auth login` (or set that provider\'s key, e.g. OPENAI_API_KEY).',
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'qwen-code',
      label: 'Qwen Code',
      description: 'Qwen Code in ACP mode (`qwen --acp`), against Qwen or any OpenAI-compatible endpoint.',
      command: 'qwen',
      args: ['--acp'],
      env: {},
      installHint: 'Install it with `npm install -g @qwen-code/qwen-code`, then sign in by running `qwen` once, or set OPENAI_API_KEY (and OPENAI_BASE_URL, OPENAI_MODEL for another endpoint).',
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'copilot',
      label: 'GitHub Copilot CLI',
      description: "GitHub's Copilot CLI as an ACP server (`copilot --acp --stdio`).",
      command: 'copilot',
      args: ['--acp', '--stdio'],
      env: {},
      installHint: 'Install it with `npm install -g @github/copilot`, then sign in by running `copilot` and typing `/login` (or set GH_TOKEN to a token with Copilot access).',
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'goose',
      label: 'Goose',
      description: "Block's Goose in ACP mode (`goose acp`).",
      command: 'goose',
      args: ['acp'],
      env: {},
      installHint: 'Install the Goose CLI from https://block.github.io/goose/docs/getting-started/installation, then choose a provider and sign in with `goose configure`.',
      authMethodWhenKeyInEnv: null,
    },
    {
      id: 'cursor',
      label: 'Cursor',
      description: "Cursor's agent CLI in ACP mode (`agent acp`).",
      command: 'agent',
      args: ['acp'],
      env: {},
      installHint: 'Install the Cursor CLI with `curl https://cursor.com/install -fsS | bash` (it lands in ~/.local/bin/agent), then sign in with `agent login`.',
      authMethodWhenKeyInEnv: null,
    },
  ];
}

/**
 * Presets first (a user entry with a preset's id adjusts that preset), then the user's own
 * agents. Entries without a command that match no preset are reported, not silently dropped.
 */
export function resolveAgents(
  userSettings: Record<string, unknown>,
  presets: Preset[],
): { agents: AgentDefinition[]; problems: string[] } {
  const problems: string[] = [];
  const agents: AgentDefinition[] = presets.map((preset) => ({ ...preset, defaultMode: null, defaultConfigOptions: {} }));
  for (const [id, raw] of Object.entries(userSettings)) {
    const index = agents.findIndex((agent) => agent.id === id);
    const resolved = applyUserEntry(id, raw, agents[index]);
    if (typeof resolved === 'string') problems.push(resolved);
    else if (index >= 0) agents[index] = resolved;
    else agents.push(resolved);
  }
  return { agents, problems };
}

/** One `tandem.agents` entry over the agent it adjusts, if any; a string says why the entry is unusable. */
function applyUserEntry(id: string, raw: unknown, existing: AgentDefinition | undefined): AgentDefinition | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return `${SETTINGS.agents}.${id} must be an object with a "command".`;
  const entry = raw as AgentServerSettings;
  const command = typeof entry.command === 'string' && entry.command.trim() ? entry.command.trim() : undefined;
  if (existing) return mergeEntry(existing, entry, command);
  if (!command) return `${SETTINGS.agents}.${id} has no "command", so it cannot be started.`;
  return mergeEntry({
    id, label: id, description: `Custom agent from ${SETTINGS.agents}.`, command, args: [], env: {},
    defaultMode: null, defaultConfigOptions: {}, installHint: null, authMethodWhenKeyInEnv: null,
  }, entry, command);
}

function mergeEntry(base: AgentDefinition, entry: AgentServerSettings, command: string | undefined): AgentDefinition {
  return {
    ...base,
    label: typeof entry.label === 'string' && entry.label ? entry.label : base.label,
    command: command ?? base.command,
    args: argsOf(base, entry, command),
    env: { ...base.env, ...stringRecord(entry.env) },
    defaultMode: entry.default_mode ?? entry.defaultMode ?? base.defaultMode,
    defaultConfigOptions: { ...base.defaultConfigOptions, ...stringRecord(entry.default_config_options), ...stringRecord(entry.defaultConfigOptions) },
    // A user-provided command is the user's own install; the preset's hint no longer applies.
    installHint: command ? null : base.installHint,
    shareProcess: entry.share_process ?? entry.shareProcess ?? base.shareProcess,
  };
}

/** A preset's arguments belong to the preset's command: a user's own command starts with none. */
function argsOf(base: AgentDefinition, entry: AgentServerSettings, command: string | undefined): string[] {
  if (Array.isArray(entry.args)) return stringArray(entry.args);
  return command ? [] : base.args;
}

/** The shell command in an install hint ("Install it with `npm install -g x`, then …"), for a Copy button; null when it names none. */
export function installCommandOf(hint: string | null): string | null {
  return hint ? /\bwith `([^`]+)`/.exec(hint)?.[1] ?? null : null;
}
