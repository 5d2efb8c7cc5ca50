import { isRecord } from '../util/untrustedJson';

/** Who an agent says it is (`initialize`'s `agentInfo`), as recordings and reports show it. */
export interface AgentIdentity {
  name: string;
  title: string | null;
  version: string | null;
}

/** The identity in an untrusted `agentInfo`-shaped value; null without a name. */
export function agentIdentity(value: unknown): AgentIdentity | null {
  if (!isRecord(value) || typeof value.name !== 'string') return null;
  return { name: value.name, title: typeof value.title === 'string' ? value.title : null, version: typeof value.version === 'string' ? value.version : null };
}
