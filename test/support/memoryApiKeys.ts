import type { ApiKeyStore } from '../../src/conversation/signIn';

/**
 * The editor's key store (VS Code's SecretStorage in the extension) in memory: `answer` is what the
 * user types when asked (undefined: they dismiss the prompt). `asked` says who asked for what.
 */
export function memoryApiKeys(answer: string | undefined): ApiKeyStore & { asked: string[]; stored: Map<string, Record<string, string>> } {
  const stored = new Map<string, Record<string, string>>();
  const asked: string[] = [];
  return {
    asked,
    stored,
    environmentFor: async (agentId) => ({ ...stored.get(agentId) }),
    ask: async (agentId, agentLabel, methodName, variable) => {
      asked.push(`${agentLabel}: ${methodName} (${variable})`);
      if (answer) stored.set(agentId, { ...stored.get(agentId), [variable]: answer });
      return answer;
    },
    forget: async (agentId) => {
      stored.delete(agentId);
    },
  };
}
