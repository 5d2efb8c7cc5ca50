/**
 * Sign-in for the scripted agent. With SCRIPTED_AGENT_AUTH=session (or =prompt) it answers
 * `session/new` (or `session/prompt`) with "authentication required" until the file named by
 * SCRIPTED_AGENT_AUTH_MARKER exists. Its login program is the agent itself run with `--login`:
 * it creates the marker and exits 0 (SCRIPTED_AGENT_LOGIN_EXIT=<code> fails instead).
 * SCRIPTED_AGENT_AUTH_FORM=legacy offers only the pre-standard `_meta["terminal-auth"]` form.
 *
 * Importing this module handles `--login` before the agent starts speaking ACP.
 */
import { existsSync, writeFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';

const mode = process.env.SCRIPTED_AGENT_AUTH;
const marker = process.env.SCRIPTED_AGENT_AUTH_MARKER;

if (process.argv.includes('--login')) {
  process.stdout.write('Signing in to the scripted agent…\r\n');
  const failWith = process.env.SCRIPTED_AGENT_LOGIN_EXIT;
  if (failWith) {
    process.stdout.write('Sign-in refused.\r\n');
    process.exit(Number(failWith));
  }
  if (!marker) {
    process.stderr.write('SCRIPTED_AGENT_AUTH_MARKER is not set\n');
    process.exit(2);
  }
  writeFileSync(marker, `signed in at ${new Date().toISOString()}\n`);
  process.stdout.write('Signed in.\r\n');
  process.exit(0);
}

/** The sign-in methods to list in `initialize`, in the forms the client said it can run. */
export function scriptedAuthMethods(capabilities: acp.ClientCapabilities): acp.AuthMethod[] {
  if (!mode) return [];
  const methods: acp.AuthMethod[] = [];
  const loginArgs = [...process.execArgv, process.argv[1] ?? '', '--login'];
  if (process.env.SCRIPTED_AGENT_AUTH_FORM !== 'legacy' && capabilities.auth?.terminal) {
    methods.push({ type: 'terminal', id: 'scripted-login', name: 'Sign in to Scripted', description: 'Runs the scripted login in a terminal', args: ['--login'] });
  } else if (capabilities._meta?.['terminal-auth'] === true) {
    methods.push({
      id: 'scripted-legacy-login',
      name: 'Sign in to Scripted (legacy)',
      _meta: { 'terminal-auth': { command: process.execPath, args: loginArgs, label: 'Scripted Login' } },
    });
  }
  return methods;
}

/** Throws "authentication required" at `stage` while the user has not signed in. */
export function requireScriptedSignIn(stage: 'session' | 'prompt'): void {
  if (mode !== stage || (marker && existsSync(marker))) return;
  throw acp.RequestError.authRequired(undefined, 'sign in to the scripted agent first');
}
