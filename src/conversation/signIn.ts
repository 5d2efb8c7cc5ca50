import type * as acp from '@agentclientprotocol/sdk';
import type { SignInMethodView } from './connection';
import { isRecord, stringRecord } from '../util/untrustedJson';

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED_CODE = -32000;

export function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === AUTH_REQUIRED_CODE;
}

/** A login program to run where the user can interact with it (a terminal). */
export interface LoginCommand {
  /** Names the terminal, e.g. "Claude Login". */
  label: string;
  command: string;
  args: string[];
  /** Added to the user's environment. */
  env: Record<string, string>;
  cwd: string;
}

export interface LoginResult {
  /** null when the terminal was closed before the program reported an exit code. */
  exitCode: number | null;
}

/** Runs login programs for the user; the editor shows them in a terminal. */
export interface SignInRunner {
  runLogin(login: LoginCommand): Promise<LoginResult>;
}

/** How the agent itself is started, which `terminal` auth methods extend. */
export interface AgentInvocation {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
}

interface LegacyTerminalAuth {
  command: string;
  args: string[];
  label: string | null;
  env: Record<string, string>;
}

/** The pre-standard form: `_meta["terminal-auth"] = {command, args, label}` on any auth method. */
function legacyTerminalAuth(method: acp.AuthMethod): LegacyTerminalAuth | null {
  const legacy = method._meta?.['terminal-auth'];
  if (!isRecord(legacy) || typeof legacy.command !== 'string' || !legacy.command) return null;
  const args = Array.isArray(legacy.args) ? legacy.args.filter((arg): arg is string => typeof arg === 'string') : [];
  return { command: legacy.command, args, label: typeof legacy.label === 'string' ? legacy.label : null, env: stringRecord(legacy.env) };
}

function isTerminalMethod(method: acp.AuthMethod): method is acp.AuthMethodTerminal & { type: 'terminal' } {
  return 'type' in method && method.type === 'terminal';
}

const providerVariables: Record<string, string> = { google: 'GEMINI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

/**
 * The environment variable an API-key method reads, from the de-facto `_meta["api-key"]`:
 * `{ env | varName }` names it, `{ provider }` implies the provider's usual one.
 */
export function apiKeyVariable(method: acp.AuthMethod): string | null {
  const meta = method._meta?.['api-key'];
  if (!isRecord(meta)) return null;
  for (const key of ['env', 'varName', 'envVar']) {
    const value = meta[key];
    if (typeof value === 'string' && /^[A-Z_][A-Z0-9_]*$/.test(value)) return value;
  }
  return typeof meta.provider === 'string' ? (providerVariables[meta.provider] ?? null) : null;
}

/** Stored API keys, asked for once per agent and variable (VS Code's SecretStorage in the extension). */
export interface ApiKeyStore {
  /** Every stored key of this agent, as environment variables. */
  environmentFor(agentId: string): Promise<Record<string, string>>;
  /** Asks the user for a key and stores it; undefined when they dismissed the prompt. */
  ask(agentId: string, agentLabel: string, methodName: string, variable: string): Promise<string | undefined>;
  forget(agentId: string): Promise<void>;
}

/** The sign-in choices to offer: login commands only when Tandem can run them. */
export function signInMethods(methods: readonly acp.AuthMethod[], canRunLogin: boolean): SignInMethodView[] {
  const views: SignInMethodView[] = [];
  for (const method of methods) {
    const terminal = isTerminalMethod(method) || legacyTerminalAuth(method) !== null;
    if (terminal && !canRunLogin) continue;
    const kind = terminal ? 'terminal' : apiKeyVariable(method) ? 'apiKey' : 'agent';
    views.push({ methodId: method.id, name: method.name, description: method.description ?? null, kind });
  }
  return views;
}

/**
 * The login program of a terminal method: the agent's own invocation plus the method's
 * arguments and environment (the spec's form), else the legacy `_meta` command.
 */
export function loginCommand(method: acp.AuthMethod, agent: AgentInvocation): LoginCommand | null {
  if (isTerminalMethod(method)) {
    return {
      label: method.name,
      command: agent.command,
      args: [...agent.args, ...(method.args ?? [])],
      env: { ...agent.env, ...(method.env ?? {}) },
      cwd: agent.cwd,
    };
  }
  const legacy = legacyTerminalAuth(method);
  if (!legacy) return null;
  return { label: legacy.label ?? method.name, command: legacy.command, args: legacy.args, env: { ...agent.env, ...legacy.env }, cwd: agent.cwd };
}
