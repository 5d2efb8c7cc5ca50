/**
 * API-key sign-in for the scripted agent: with SCRIPTED_AGENT_AUTH=apikey it offers one method
 * whose `_meta["api-key"]` names the variable SCRIPTED_API_KEY, and refuses sessions with
 * "authentication required" until it was started with that variable set and authenticated.
 */
import * as acp from '@agentclientprotocol/sdk';

export const API_KEY_VARIABLE = 'SCRIPTED_API_KEY';
let authenticated = false;

export function apiKeyMethods(): acp.AuthMethod[] {
  if (process.env.SCRIPTED_AGENT_AUTH !== 'apikey') return [];
  return [{ id: 'scripted-key', name: 'Scripted API key', description: 'Paste the key of your scripted account', _meta: { 'api-key': { env: API_KEY_VARIABLE } } }];
}

export function authenticateWithKey(methodId: string): void {
  if (methodId !== 'scripted-key' || !process.env[API_KEY_VARIABLE]) throw acp.RequestError.authRequired(undefined, 'no API key in the environment');
  authenticated = true;
}

export function requireApiKey(): void {
  if (process.env.SCRIPTED_AGENT_AUTH === 'apikey' && !authenticated) throw acp.RequestError.authRequired(undefined, 'authenticate with an API key first');
}
