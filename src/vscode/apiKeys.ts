import * as vscode from 'vscode';
import type { ApiKeyStore } from '../conversation/signIn';
import { apiKeySecretName, STORAGE_KEYS } from '../contract/ids';

/**
 * API keys in VS Code's SecretStorage (the OS keychain where there is one), one per agent and
 * variable. Only the variable names are kept in plain storage, to know what to read back.
 */
export function secretApiKeys(secrets: vscode.SecretStorage, index: vscode.Memento): ApiKeyStore {
  const variables = (agentId: string) => index.get<Record<string, string[]>>(STORAGE_KEYS.apiKeyVariables, {})[agentId] ?? [];
  return {
    async environmentFor(agentId) {
      const env: Record<string, string> = {};
      for (const variable of variables(agentId)) {
        const value = await secrets.get(apiKeySecretName(agentId, variable));
        if (value) env[variable] = value;
      }
      return env;
    },
    async ask(agentId, agentLabel, methodName, variable) {
      const value = await vscode.window.showInputBox({
        title: `Sign in to ${agentLabel}: ${methodName}`,
        prompt: `Tandem keeps the key in the editor's secret storage and gives it to ${agentLabel} as ${variable}. It is never written to settings or logs.`,
        password: true,
        ignoreFocusOut: true,
        validateInput: (text) => (text.trim().length < 8 ? 'That looks too short for an API key.' : undefined),
      });
      const key = value?.trim();
      if (!key) return undefined;
      await secrets.store(apiKeySecretName(agentId, variable), key);
      const all = index.get<Record<string, string[]>>(STORAGE_KEYS.apiKeyVariables, {});
      await index.update(STORAGE_KEYS.apiKeyVariables, { ...all, [agentId]: [...new Set([...(all[agentId] ?? []), variable])] });
      return key;
    },
    async forget(agentId) {
      for (const variable of variables(agentId)) await secrets.delete(apiKeySecretName(agentId, variable));
      const all = index.get<Record<string, string[]>>(STORAGE_KEYS.apiKeyVariables, {});
      delete all[agentId];
      await index.update(STORAGE_KEYS.apiKeyVariables, all);
    },
  };
}
