import type * as acp from '@agentclientprotocol/sdk';
import type { CompactionStatusView, CompactionView } from './entries';
import { compactionTokensOf } from './agentMeta';
import { contentBlockText } from './toolCallMapping';

type CompactionUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'compaction_update' | 'compaction_summary_chunk' }>;

function toStatus(status: string): CompactionStatusView {
  return status === 'completed' || status === 'failed' || status === 'cancelled' ? status : 'in_progress';
}

/**
 * Applies one compaction update (schema patch rules: an absent field stays, `null` clears).
 * `usedNow` is the context's size as last reported: what the compaction started from when the
 * agent gives no figure of its own.
 */
export function mergeCompaction(current: CompactionView | null, update: CompactionUpdate, usedNow: number | null): CompactionView {
  const base: CompactionView = current ?? { compactionId: update.compactionId, status: 'in_progress', tokensBefore: usedNow, tokensAfter: null, summary: '', error: null };
  if (update.sessionUpdate === 'compaction_summary_chunk') return { ...base, summary: base.summary + contentBlockText(update.content) };
  const next: CompactionView = { ...base, status: toStatus(update.status) };
  if (update.summary !== undefined) next.summary = (update.summary ?? []).map(contentBlockText).join('');
  if (update.error !== undefined) next.error = update.error ?? null;
  const reported = compactionTokensOf(update._meta);
  if (reported.before !== null) next.tokensBefore = reported.before;
  if (reported.after !== null) next.tokensAfter = reported.after;
  return next;
}

/** A compaction that completed without its own after-figure takes the next usage report as it. */
export function awaitsTokensAfter(compaction: CompactionView): boolean {
  return compaction.status === 'completed' && compaction.tokensAfter === null;
}
