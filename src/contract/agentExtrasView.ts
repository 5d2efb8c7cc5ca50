/**
 * What agents add on top of ACP, as the panel shows it: steering a message into a running
 * turn, context compactions and plan rate limits (a subagent's work is in subagentSummary.ts).
 * The shapes are the cores' (steering and compactions are thread entries', plan limits usage's);
 * here are the words the panel and the status bar show for them.
 */

import type { CompactionView } from '../thread/entries';
import type { RateLimitView } from '../usage/rateLimits';

export type { SteerOutcomeView, CompactionStatusView, CompactionView } from '../thread/entries';
export type { RateLimitView } from '../usage/rateLimits';

const windowLabels: Record<string, string> = {
  five_hour: '5-hour limit',
  seven_day: 'Weekly limit',
  seven_day_opus: 'Weekly Opus limit',
  seven_day_sonnet: 'Weekly Sonnet limit',
  overage: 'Extra usage',
};

export function rateLimitLabel(limit: RateLimitView): string {
  return windowLabels[limit.window] ?? limit.window.replace(/_/g, ' ');
}

/** "5-hour limit: 80% used, resets 14:30" in the reader's own clock; `now` decides whether the day is named. */
export function rateLimitText(limit: RateLimitView, now: number = Date.now()): string {
  const state = limit.status === 'rejected' ? 'reached' : limit.percent !== null ? `${Math.round(limit.percent)}% used` : limit.status === 'allowed_warning' ? 'nearly reached' : 'fine';
  if (limit.resetsAt === null) return `${rateLimitLabel(limit)}: ${state}`;
  const reset = new Date(limit.resetsAt);
  const sameDay = new Date(now).toDateString() === reset.toDateString();
  const time = reset.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' });
  const when = sameDay ? time : `${reset.toLocaleDateString('en', { weekday: 'short', month: 'short', day: 'numeric' })} ${time}`;
  return `${rateLimitLabel(limit)}: ${state}, resets ${when}`;
}

/** "context compacted: 150k tokens -> 12k" and what is known of it. */
export function compactionText(compaction: CompactionView, formatTokens: (count: number) => string): string {
  switch (compaction.status) {
    case 'in_progress':
      return 'Compacting the context…';
    case 'failed':
      return `Context compaction failed${compaction.error ? `: ${compaction.error}` : '.'}`;
    case 'cancelled':
      return 'Context compaction was cancelled.';
    case 'completed': {
      const { tokensBefore: before, tokensAfter: after } = compaction;
      if (before !== null && after !== null) return `Context compacted: ${formatTokens(before)} tokens -> ${formatTokens(after)}`;
      if (before !== null) return `Context compacted from ${formatTokens(before)} tokens`;
      return after !== null ? `Context compacted to ${formatTokens(after)} tokens` : 'Context compacted';
    }
  }
}
