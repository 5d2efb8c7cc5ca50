/**
 * API-key sign-in for the scripted agent: with SCRIPTED_AGENT_AUTH=apikey it offers one method
 * whose `_meta["api-key"]` names the variable SCRIPTED_API_KEY, and refuses sessions with
 * "authentication required" until it was started with that variable set and authenticated.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { ScriptedAgentEnv } from './scenario';

export const API_KEY_VARIABLE = 'SCRIPTED_API_KEY';

/** One agent's API-key sign-in: authenticating counts for that agent only, as with a real process. */
export class ApiKeySignIn {
  private authenticated = false;

  constructor(private readonly env: ScriptedAgentEnv) {}

  private get offered(): boolean {
    return this.env.SCRIPTED_AGENT_AUTH === 'apikey';
  }

  methods(): acp.AuthMethod[] {
    if (!this.offered) return [];
    return [{ id: 'scripted-key', name: 'Scripted API key', description: 'Paste the key of your scripted account', _meta: { 'api-key': { env: API_KEY_VARIABLE } } }];
  }

  authenticate(methodId: string): void {
    if (methodId !== 'scripted-key' || !this.env[API_KEY_VARIABLE]) throw acp.RequestError.authRequired(undefined, 'no API key in the environment');
    this.authenticated = true;
  }

  require(): void {
    if (this.offered && !this.authenticated) throw acp.RequestError.authRequired(undefined, 'authenticate with an API key first');
  }
}
