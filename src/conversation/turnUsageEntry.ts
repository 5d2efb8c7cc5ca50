import type * as acp from '@agentclientprotocol/sdk';
import type { SessionFacts } from '../thread/threadModel';
import { costOfTurn, type SessionCost } from '../usage/turnCost';
import { turnTokens } from '../usage/turnTokens';
import { localDay, type UsageEntry } from '../usage/usageEntry';

/** What the ledger needs to know of a conversation at the end of one of its turns. */
export interface EndedTurn {
  readonly agent: { id: string; label: string };
  readonly conversation: string;
  readonly sessionId: string | null;
  readonly project: string | null;
  readonly facts: Readonly<SessionFacts>;
  /** The session's answer, for Gemini's legacy `models` when the agent has no model option. */
  readonly sessionResponse: { models?: { currentModelId?: string } | null } | null;
  readonly stopReason: string;
  readonly costBefore: SessionCost | null;
  readonly response: acp.PromptResponse | null;
  readonly endedAt: Date;
}

/** The model in use as its picker names it: the `model` config option, else the legacy current model. */
function modelOf(turn: EndedTurn): string | null {
  for (const option of turn.facts.configOptions) {
    if (option.category !== 'model' || option.type !== 'select') continue;
    const choices = option.options.flatMap((item) => ('group' in item ? item.options : [item]));
    return choices.find((choice) => choice.value === option.currentValue)?.name ?? String(option.currentValue);
  }
  return turn.sessionResponse?.models?.currentModelId ?? null;
}

/**
 * The ledger entry of a turn, or null for a turn that reached no agent and cost nothing (it could
 * not start, or was refused before a prompt went out).
 */
export function turnUsageEntry(turn: EndedTurn): UsageEntry | null {
  const cost = costOfTurn(turn.costBefore, turn.facts.usage?.cost ?? null);
  if (!turn.response && !(cost && cost.amount > 0)) return null;
  const tokens = turnTokens(turn.response) ?? { inputTokens: null, outputTokens: null, totalTokens: null };
  return {
    v: 1,
    at: turn.endedAt.toISOString(),
    day: localDay(turn.endedAt),
    project: turn.project,
    agent: turn.agent.id,
    agentLabel: turn.agent.label,
    model: modelOf(turn),
    conversation: turn.conversation,
    sessionId: turn.sessionId,
    stopReason: turn.stopReason,
    ...tokens,
    cost: cost?.amount ?? null,
    currency: cost?.currency ?? null,
  };
}
