/** One plan limit the agent reported (Claude's `usage_update._meta["_claude/rateLimit"]`). Plain data: src/contract publishes it. */
export interface RateLimitView {
  /** The agent's name for the window: `five_hour`, `seven_day`, ... */
  window: string;
  status: 'allowed' | 'allowed_warning' | 'rejected';
  /** Share of the limit used, 0-100, when reported. */
  percent: number | null;
  /** When the window resets, ms since the epoch, when reported. */
  resetsAt: number | null;
}
