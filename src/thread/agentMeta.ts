/**
 * What real agents put in `_meta` beyond the schema, read defensively (it is the agent's free
 * JSON): the subagent a tool call or message belongs to and the token figures of a compaction
 * (Claude's plan limits are usage's: src/usage/planLimits.ts).
 */
import { nonNegativeNumber as count } from '../util/untrustedJson';

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Claude's adapter stamps a subagent's tool calls (and, when asked, its messages) with the Task/Agent call that runs it. */
export function parentToolCallIdOf(meta: unknown): string | null {
  const parent = record(record(meta)?.claudeCode)?.parentToolUseId;
  return typeof parent === 'string' && parent.length > 0 ? parent : null;
}

/** Token figures some adapters put on a compaction (`_meta.jetbrains.air.contextCompaction`). */
export function compactionTokensOf(meta: unknown): { before: number | null; after: number | null } {
  const facts = record(record(record(meta)?.jetbrains)?.air)?.contextCompaction;
  const known = record(facts);
  return { before: count(known?.preTokens), after: count(known?.postTokens) };
}
