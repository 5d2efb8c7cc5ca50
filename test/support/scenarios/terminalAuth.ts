/**
 * Sign-in for the scripted agent. With SCRIPTED_AGENT_AUTH=session (or =prompt) it answers
 * `session/new` (or `session/prompt`) with "authentication required" until the file named by
 * SCRIPTED_AGENT_AUTH_MARKER exists. Its login program is the agent itself run with `--login`:
 * it creates the marker and exits 0 (SCRIPTED_AGENT_LOGIN_EXIT=<code> fails instead).
 * SCRIPTED_AGENT_AUTH_FORM=legacy offers only the pre-standard `_meta["terminal-auth"]` form.
 */
import { existsSync, writeFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import type { ScriptedAgentEnv } from './scenario';

/** How the agent was started: its login program is the same command with `--login`. */
export interface AgentInvocation {
  command: string;
  args: string[];
}

export class TerminalSignIn {
  constructor(private readonly env: ScriptedAgentEnv, private readonly invocation: AgentInvocation) {}

  /** The sign-in methods to list in `initialize`, in the forms the client said it can run. */
  methods(capabilities: acp.ClientCapabilities): acp.AuthMethod[] {
    if (!this.env.SCRIPTED_AGENT_AUTH) return [];
    if (this.env.SCRIPTED_AGENT_AUTH_FORM !== 'legacy' && capabilities.auth?.terminal) {
      return [{ type: 'terminal', id: 'scripted-login', name: 'Sign in to Scripted', description: 'Runs the scripted login in a terminal', args: ['--login'] }];
    }
    if (capabilities._meta?.['terminal-auth'] !== true) return [];
    return [{
      id: 'scripted-legacy-login',
      name: 'Sign in to Scripted (legacy)',
      _meta: { 'terminal-auth': { command: this.invocation.command, args: [...this.invocation.args, '--login'], label: 'Scripted Login' } },
    }];
  }

  /** Throws "authentication required" at `stage` while the user has not signed in. */
  require(stage: 'session' | 'prompt'): void {
    const marker = this.env.SCRIPTED_AGENT_AUTH_MARKER;
    if (this.env.SCRIPTED_AGENT_AUTH !== stage || (marker && existsSync(marker))) return;
    throw acp.RequestError.authRequired(undefined, 'sign in to the scripted agent first');
  }
}

/** The `--login` program: a process of its own that a terminal runs, so it talks to stdout and exits. */
export function runScriptedLogin(env: ScriptedAgentEnv): never {
  process.stdout.write('Signing in to the scripted agent…\r\n');
  const failWith = env.SCRIPTED_AGENT_LOGIN_EXIT;
  if (failWith) {
    process.stdout.write('Sign-in refused.\r\n');
    process.exit(Number(failWith));
  }
  const marker = env.SCRIPTED_AGENT_AUTH_MARKER;
  if (!marker) {
    process.stderr.write('SCRIPTED_AGENT_AUTH_MARKER is not set\n');
    process.exit(2);
  }
  writeFileSync(marker, `signed in at ${new Date().toISOString()}\n`);
  process.stdout.write('Signed in.\r\n');
  process.exit(0);
}
