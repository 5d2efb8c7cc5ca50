import { z } from 'zod';

/**
 * One turn in the usage ledger: when it ended, where (project, agent, model, conversation), how it
 * ended, and what the agent reported for it. A count the agent did not report is null, never 0:
 * Gemini CLI sends no cost, Copilot no tokens, and the totals must say so rather than show nothing spent.
 */
export interface UsageEntry {
  readonly v: 1;
  /** When the turn ended (ISO 8601, UTC). */
  readonly at: string;
  /** The calendar day the user was in when it ended (YYYY-MM-DD, local time): "today" means the user's day. */
  readonly day: string;
  /** The project's folder (the conversation's first root); null without one. */
  readonly project: string | null;
  readonly agent: string;
  readonly agentLabel: string;
  /** The model the turn ran on as the agent names it; null where the agent offers no model choice. */
  readonly model: string | null;
  /** Tandem's key of the conversation, and the agent's session id. */
  readonly conversation: string;
  readonly sessionId: string | null;
  readonly stopReason: string;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly totalTokens: number | null;
  /** What this turn cost: the growth of the session's cumulative cost over the turn; null where none is reported. */
  readonly cost: number | null;
  readonly currency: string | null;
}

const count = z.number().finite().nonnegative().nullable();

/** An entry as read back from the ledger: every field checked, so a damaged line is skipped rather than summed. */
export const zUsageEntry = z.object({
  v: z.literal(1),
  at: z.string().datetime(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  project: z.string().nullable(),
  agent: z.string().min(1),
  agentLabel: z.string(),
  model: z.string().nullable(),
  conversation: z.string(),
  sessionId: z.string().nullable(),
  stopReason: z.string(),
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  cost: z.number().finite().nullable(),
  currency: z.string().max(16).nullable(),
});

/** The local calendar day of `time` as YYYY-MM-DD. */
export function localDay(time: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}
