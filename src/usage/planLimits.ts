/**
 * Plan limits as agents report them, for the usage meter: Claude's 5-hour and weekly windows in
 * `usage_update._meta["_claude/rateLimit"]`, read defensively (it is the agent's free JSON).
 */
import type { RateLimitView } from './rateLimits';
import { isRecord, nonNegativeNumber as count } from '../util/untrustedJson';

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

const rateLimitStatuses = new Set<RateLimitView['status']>(['allowed', 'allowed_warning', 'rejected']);

/**
 * `usage_update._meta["_claude/rateLimit"]`: one window per update (`rateLimitType`), with
 * `utilization` as a fraction and `resetsAt` in seconds since the epoch.
 */
export function rateLimitOf(meta: unknown): RateLimitView | null {
  const info = field(meta, '_claude/rateLimit');
  if (!isRecord(info)) return null;
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
