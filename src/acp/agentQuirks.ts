import type * as acp from '@agentclientprotocol/sdk';

/**
 * Behaviour of specific agents that a spec-following client must accommodate, keyed by the
 * name they give in `initialize`. Each quirk says what breaks without it.
 */
export interface AgentQuirks {
  /**
   * Gemini CLI (0.61) checks whether a file exists by reading it through `fs/read_text_file`
   * and only treats a Node ENOENT error as "missing"; the JSON-RPC error its SDK raises is a
   * plain object, so `write_file` of a new file fails. Answering empty text lets it create files.
   */
  missingFileReadsAsEmpty: boolean;
}

export function quirksOf(agentInfo: acp.Implementation | null): AgentQuirks {
  const name = agentInfo?.name.toLowerCase() ?? '';
  return { missingFileReadsAsEmpty: name.startsWith('gemini') };
}
