import type * as acp from '@agentclientprotocol/sdk';

/** Token counts of one turn; a count the agent did not report is null. */
export interface TurnTokens {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly totalTokens: number | null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function tokens(inputTokens: number | null, outputTokens: number | null, totalTokens: number | null): TurnTokens | null {
  if (inputTokens === null && outputTokens === null && totalTokens === null) return null;
  return { inputTokens, outputTokens, totalTokens };
}

/** The unstable `usage` field of a prompt answer. */
function standardUsage(response: acp.PromptResponse): TurnTokens | null {
  const usage = (response as { usage?: Record<string, unknown> | null }).usage;
  if (!usage || typeof usage !== 'object') return null;
  return tokens(count(usage.inputTokens), count(usage.outputTokens), count(usage.totalTokens));
}

/** `_meta.quota.token_count`, which Gemini CLI and Claude's adapter add (snake or camel case). */
function quotaUsage(response: acp.PromptResponse): TurnTokens | null {
  const quota = (response._meta as { quota?: { token_count?: Record<string, unknown> } } | null | undefined)?.quota?.token_count;
  if (!quota || typeof quota !== 'object') return null;
  const inputTokens = count(quota.input_tokens ?? quota.inputTokens);
  const outputTokens = count(quota.output_tokens ?? quota.outputTokens);
  const summed = inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null;
  return tokens(inputTokens, outputTokens, count(quota.total_tokens ?? quota.totalTokens) ?? summed);
}

/** Token counts of one turn from a prompt answer: the standard field first, else the agents' `_meta` quota. */
export function turnTokens(response: acp.PromptResponse | null): TurnTokens | null {
  if (!response) return null;
  return standardUsage(response) ?? quotaUsage(response);
}
