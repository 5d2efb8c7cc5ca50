import type * as acp from '@agentclientprotocol/sdk';
import type { CommandView, UsageView } from '../../contract/conversationView';
import type { SessionFacts } from '../../thread/threadModel';

/** The meter turns to the warning colour here, and to the error colour when the window is full. */
export const USAGE_WARNING_PERCENT = 85;

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

type TurnUsageView = Extract<UsageView, { kind: 'turn' }>;

function turnView(inputTokens: number | null, outputTokens: number | null, totalTokens: number | null): TurnUsageView | null {
  if (inputTokens === null && outputTokens === null && totalTokens === null) return null;
  return { kind: 'turn', inputTokens, outputTokens, totalTokens };
}

/** The unstable `usage` field of a prompt answer. */
function standardUsage(response: acp.PromptResponse): TurnUsageView | null {
  const usage = (response as { usage?: Record<string, unknown> | null }).usage;
  if (!usage || typeof usage !== 'object') return null;
  return turnView(count(usage.inputTokens), count(usage.outputTokens), count(usage.totalTokens));
}

/** `_meta.quota.token_count`, which Gemini CLI and Claude's adapter add (snake or camel case). */
function quotaUsage(response: acp.PromptResponse): TurnUsageView | null {
  const quota = (response._meta as { quota?: { token_count?: Record<string, unknown> } } | null | undefined)?.quota?.token_count;
  if (!quota || typeof quota !== 'object') return null;
  const inputTokens = count(quota.input_tokens ?? quota.inputTokens);
  const outputTokens = count(quota.output_tokens ?? quota.outputTokens);
  const summed = inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null;
  return turnView(inputTokens, outputTokens, count(quota.total_tokens ?? quota.totalTokens) ?? summed);
}

/** Token counts of one turn from a prompt answer: the standard field first, else the agents' `_meta` quota. */
export function turnUsage(response: acp.PromptResponse | null): TurnUsageView | null {
  if (!response) return null;
  return standardUsage(response) ?? quotaUsage(response);
}

/** The context meter from `usage_update`; without one, what the last prompt answer reported (never a made-up percentage). */
export function usageView(usage: SessionFacts['usage'], lastResponse: acp.PromptResponse | null): UsageView | null {
  if (usage && usage.size > 0) {
    const percent = Math.min(100, Math.max(0, (usage.used / usage.size) * 100));
    const level = usage.used >= usage.size ? 'full' : percent >= USAGE_WARNING_PERCENT ? 'warning' : 'normal';
    return { kind: 'context', used: usage.used, size: usage.size, percent, level, cost: usage.cost };
  }
  return turnUsage(lastResponse);
}

export function commandViews(commands: readonly acp.AvailableCommand[]): CommandView[] {
  return commands.slice(0, 500).map((command) => ({
    name: command.name,
    description: command.description,
    inputHint: command.input && 'hint' in command.input ? command.input.hint : null,
  }));
}
