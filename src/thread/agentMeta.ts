/**
 * What real agents put in `_meta` beyond the schema, read defensively (it is the agent's free
 * JSON): the subagent a tool call or message belongs to, Claude's plan rate limits, and the
 * token figures of a compaction.
 */
import type { RateLimitView } from '../contract/agentExtrasView';

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Claude's adapter stamps a subagent's tool calls (and, when asked, its messages) with the Task/Agent call that runs it. */
export function parentToolCallIdOf(meta: unknown): string | null {
  const parent = record(record(meta)?.claudeCode)?.parentToolUseId;
  return typeof parent === 'string' && parent.length > 0 ? parent : null;
}

const rateLimitStatuses = new Set<RateLimitView['status']>(['allowed', 'allowed_warning', 'rejected']);

/**
 * `usage_update._meta["_claude/rateLimit"]`: one window per update (`rateLimitType`), with
 * `utilization` as a fraction and `resetsAt` in seconds since the epoch.
 */
export function rateLimitOf(meta: unknown): RateLimitView | null {
  const info = record(record(meta)?.['_claude/rateLimit']);
  if (!info) return null;
  const status = typeof info.status === 'string' && rateLimitStatuses.has(info.status as RateLimitView['status']) ? (info.status as RateLimitView['status']) : null;
  if (!status) return null;
  const window = typeof info.rateLimitType === 'string' && info.rateLimitType.length > 0 ? info.rateLimitType : 'plan';
  const utilization = count(info.utilization);
  const resetsAt = count(info.resetsAt);
  return { window, status, percent: utilization === null ? null : Math.min(100, utilization * 100), resetsAt: resetsAt === null ? null : resetsAt * 1000 };
}

/** The limits known so far with `limit` in its window's place (each window keeps its newest report). */
export function withRateLimit(limits: readonly RateLimitView[], limit: RateLimitView): RateLimitView[] {
  const others = limits.filter((candidate) => candidate.window !== limit.window);
  return [...others, limit].sort((a, b) => a.window.localeCompare(b.window));
}

/** Token figures some adapters put on a compaction (`_meta.jetbrains.air.contextCompaction`). */
export function compactionTokensOf(meta: unknown): { before: number | null; after: number | null } {
  const facts = record(record(record(meta)?.jetbrains)?.air)?.contextCompaction;
  const known = record(facts);
  return { before: count(known?.preTokens), after: count(known?.postTokens) };
}
