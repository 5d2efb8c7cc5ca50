// Spawn specs for the real agents (pinned in test/agents/package.json), pointed at a scripted model
// server on 127.0.0.1 and sealed off from everything else: a scratch HOME per agent, no
// inherited credentials or proxies, telemetry / update checks / feature-flag fetches off.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { agentProgram } from "./agentPackages";
import type { SpawnSpec } from "./raw-ndjson-client";

/** Resolved from this file, so specs work whatever the test's cwd is. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** One client -> agent request to send after `initialize` and before `session/new`. */
export interface PreSessionStep {
  method: string;
  params: Record<string, unknown>;
}

export interface AgentSpec extends SpawnSpec {
  name: "claude" | "gemini" | "codex" | "qwen" | "opencode";
  /** Scratch HOME of this agent (settings, logs, session files). */
  home: string;
  /** Requests the agent needs between `initialize` and `session/new`. */
  preSession: PreSessionStep[];
  /** Removes the scratch HOME (and the default cwd when the spec made one). Call after the agent exited. */
  dispose(): void;
}

export interface AgentSpecOptions {
  /** Process cwd; default: a fresh empty folder inside the scratch dir. Use the session cwd. */
  cwd?: string;
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
}

export function claudeAgentSpec(modelUrl: string, opts: AgentSpecOptions = {}): AgentSpec {
  return sealedSpec("claude", opts, (home) => ({
    ...nodeScript("@agentclientprotocol/claude-agent-acp", "claude-agent-acp"),
    // Claude Code's global config. In auto mode behind a non-Anthropic base URL it otherwise posts
    // a once-a-day "auto mode classifier billing" notice as an extra agent_message_chunk into the
    // first turn; acknowledging it keeps the agent's visible output exactly the scripted text.
    config: { file: path.join(".claude", ".claude.json"), text: JSON.stringify({ autoModeClassifierBillingNoticeAcknowledgedAt: Date.now() }) },
    env: {
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: "test-key",
      // We run as root; Claude Code refuses its permission-bypass flag as root without this.
      IS_SANDBOX: "1",
      // Umbrella switch: no autoupdater, telemetry, error reporting or other non-model traffic.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // The individual switches as well, in case a version stops honouring the umbrella one.
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_GROWTHBOOK: "1",
      CLAUDE_CODE_ENABLE_TELEMETRY: "0",
      // Keep its config inside the scratch HOME explicitly (it would otherwise follow HOME anyway).
      CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    },
  }));
}

export function geminiAgentSpec(modelUrl: string, opts: AgentSpecOptions = {}): AgentSpec {
  // Settings the CLI only reads from settings.json. Without them it contacts play.googleapis.com
  // (usage statistics) on start; auto-update would ask the npm registry, which is reachable here.
  const settings = {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false },
    security: { auth: { selectedType: "gemini-api-key" } },
  };
  return sealedSpec("gemini", opts, (home) => ({
    ...nodeScript("@google/gemini-cli", "gemini", "--acp"),
    preSession: [{ method: "authenticate", params: { methodId: "gemini-api-key" } }],
    config: { file: path.join(".gemini", "settings.json"), text: JSON.stringify(settings, null, 2) },
    env: {
      GEMINI_API_KEY: "test-key",
      // http is accepted for loopback only, which is exactly what we serve.
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_CLI_HOME: home,
      // Skip the self-relaunch (a second node process just to raise the heap limit): faster start,
      // and the agent's pid is the process that speaks ACP.
      GEMINI_CLI_NO_RELAUNCH: "true",
      // Headless folder-trust check: the scratch workspace is trusted by the test.
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      GEMINI_TELEMETRY_ENABLED: "false",
    },
  }));
}

/**
 * The model Codex starts with: the newest one in codex 0.166's bundled catalogue that still gets the
 * classic tool set (`exec_command` as a JSON function, `apply_patch` as a free-form tool). The
 * newer ones only get `exec`, a JavaScript "code mode" tool that calls the others from a script.
 */
export const CODEX_MODEL = "gpt-5.5";

export interface CodexSpecOptions extends AgentSpecOptions {
  /**
   * The provider needs an OpenAI login (`requires_openai_auth`, as Codex's built-in one does) and
   * there is none, as for a new user: the agent asks to be signed in, then sends the key to the model.
   */
  signedOut?: boolean;
}

export function codexAgentSpec(modelUrl: string, opts: CodexSpecOptions = {}): AgentSpec {
  // Codex's own config.toml keys: a custom model provider is how Codex talks to anything but
  // api.openai.com. Without `requires_openai_auth` it needs no login, so no key reaches the agent.
  // No retries: a scripted turn is consumed once, a retry would eat the next one. Top-level keys
  // come first: in TOML every key after a [table] header belongs to that table.
  const lines = [
    `model = "${CODEX_MODEL}"`,
    `model_provider = "scripted"`,
    `check_for_update_on_startup = false`,
    `web_search = "disabled"`,
    `[analytics]`,
    `enabled = false`,
    `[feedback]`,
    `enabled = false`,
    `[model_providers.scripted]`,
    `name = "Scripted"`,
    `base_url = "${modelUrl}/v1"`,
    `wire_api = "responses"`,
    `requires_openai_auth = ${opts.signedOut === true}`,
    `request_max_retries = 0`,
    `stream_max_retries = 0`,
  ];
  return sealedSpec("codex", opts, (home) => ({
    ...nodeScript("@agentclientprotocol/codex-acp", "codex-acp"),
    config: { file: path.join(".codex", "config.toml"), text: [...lines, ""].join("\n") },
    env: {
      CODEX_HOME: path.join(home, ".codex"),
      // Offer no browser sign-in (nothing could open one here), only what works headless.
      NO_BROWSER: "1",
    },
  }));
}

/** The model name Qwen Code and OpenCode are configured with; the scripted server answers any name. */
export const OPENAI_COMPATIBLE_MODEL = "gpt-scripted";

/**
 * Qwen Code in ACP mode against the scripted Responses API server: its "openai-responses" auth type
 * takes the key, base URL and model from the environment, so no sign-in and no Qwen account.
 */
export function qwenAgentSpec(modelUrl: string, opts: AgentSpecOptions = {}): AgentSpec {
  // Settings it reads only from settings.json: no usage statistics, telemetry or update checks
  // (the npm registry is reachable here), and the auth type chosen so it never asks for one.
  const settings = {
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    security: { auth: { selectedType: "openai-responses" } },
  };
  return sealedSpec("qwen", opts, () => ({
    ...nodeScript("@qwen-code/qwen-code", "qwen", "--acp"),
    config: { file: path.join(".qwen", "settings.json"), text: JSON.stringify(settings, null, 2) },
    env: {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: `${modelUrl}/v1`,
      OPENAI_MODEL: OPENAI_COMPATIBLE_MODEL,
    },
  }));
}

/**
 * OpenCode in ACP mode (`opencode acp`) against the scripted Responses API server: a provider of its
 * own in a scratch XDG config, on the AI SDK's OpenAI package it bundles, so nothing is installed
 * at run time. Edits and commands ask first, as a user's "ask" permission rules make them.
 */
export function opencodeAgentSpec(modelUrl: string, opts: AgentSpecOptions = {}): AgentSpec {
  const model = `scripted/${OPENAI_COMPATIBLE_MODEL}`;
  const config = {
    autoupdate: false,
    share: "disabled",
    model,
    small_model: model,
    enabled_providers: ["scripted"],
    permission: { edit: "ask", bash: "ask" },
    provider: {
      scripted: {
        npm: "@ai-sdk/openai",
        name: "Scripted",
        options: { baseURL: `${modelUrl}/v1`, apiKey: "test-key" },
        models: { [OPENAI_COMPATIBLE_MODEL]: { name: OPENAI_COMPATIBLE_MODEL, tool_call: true, limit: { context: 131072, output: 8192 } } },
      },
    },
  };
  return sealedSpec("opencode", opts, (home) => ({
    // A native binary, run as it is.
    command: agentProgram("opencode-ai", "opencode"),
    args: ["acp"],
    config: { file: path.join(".config", "opencode", "opencode.json"), text: JSON.stringify(config, null, 2) },
    env: {
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
      XDG_STATE_HOME: path.join(home, ".local", "state"),
      // The models.dev catalogue, update checks, LSP downloads and default plugins all go to the network.
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "true",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_SHARE: "1",
    },
  }));
}

/** What sets one agent apart, for the scratch HOME it is given. */
interface SealedAgent {
  command: string;
  args: string[];
  /** Requests between `initialize` and `session/new`; none unless given. */
  preSession?: PreSessionStep[];
  /** The one config file the agent reads from its HOME: its path there, and its text. */
  config: { file: string; text: string };
  /** Its own variables over the small base environment; the test's `env` goes over both. */
  env: Record<string, string>;
}

/** A spec in a scratch dir of its own, with the agent's config file written into its HOME. */
function sealedSpec(name: AgentSpec["name"], opts: AgentSpecOptions, agentFor: (home: string) => SealedAgent): AgentSpec {
  const { home, cwd, dispose } = scratch(name, opts.cwd);
  const agent = agentFor(home);
  const configPath = path.join(home, agent.config.file);
  mkdirSync(path.dirname(configPath), { recursive: true });
  writeFileSync(configPath, agent.config.text);
  return { name, command: agent.command, args: agent.args, cwd, home, preSession: agent.preSession ?? [], dispose, env: { ...baseEnv(home), ...agent.env, ...opts.env } };
}

/** Runs a package's script with this node: no dependence on PATH or the shebang. */
function nodeScript(packageName: string, bin: string, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [agentProgram(packageName, bin), ...args] };
}

/** A deliberately small environment: nothing inherited can point an agent at a real service. */
function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: os.tmpdir(),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    // Proxies are not inherited; loopback must never be proxied even if one is configured later.
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}

function scratch(name: string, cwd: string | undefined): { home: string; cwd: string; dispose(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), `tandem-${name}-`));
  const home = path.join(root, "home");
  mkdirSync(home);
  let workdir = cwd;
  if (workdir === undefined) {
    workdir = path.join(root, "work");
    mkdirSync(workdir);
  }
  // What the agent started in sessions of their own ends with Tandem's sweep of its process tree, up
  // to its grace (1.5 s) after the adapter exited, and may write in HOME until then.
  return { home, cwd: workdir, dispose: () => rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }) };
}
