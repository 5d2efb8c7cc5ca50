/**
 * What agents add on top of ACP, as the panel shows it: steering a message into a running
 * turn, context compactions and plan rate limits (a subagent's work is in subagentSummary.ts).
 * Plain data shared by the host and the webview.
 */

/**
 * What the agent answered when a message was steered into its running turn (the de-facto
 * `_session/steering` extension): taken into the turn, or run as a turn of its own.
 */
export type SteerOutcomeView = 'injected' | 'startedNewTurn';

export type CompactionStatusView = 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** One context compaction (`compaction_update` / `compaction_summary_chunk`), addressed by the agent's id. */
export interface CompactionView {
  compactionId: string;
  status: CompactionStatusView;
  /** Tokens in context before and after, when known (the agent's own figures, else the usage around it). */
  tokensBefore: number | null;
  tokensAfter: number | null;
  summary: string;
  error: string | null;
}

/** One plan limit the agent reported (Claude's `usage_update._meta["_claude/rateLimit"]`). */
export interface RateLimitView {
  /** The agent's name for the window: `five_hour`, `seven_day`, ... */
  window: string;
  status: 'allowed' | 'allowed_warning' | 'rejected';
  /** Share of the limit used, 0-100, when reported. */
  percent: number | null;
  /** When the window resets, ms since the epoch, when reported. */
  resetsAt: number | null;
}

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
