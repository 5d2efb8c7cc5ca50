/**
 * The usage meter in words, for every place that shows it (the panel's meter and the editor's
 * status bar), so the numbers read the same wherever the user sees them.
 */
import type { UsageView } from './conversationView';

export function formatTokens(count: number): string {
  return new Intl.NumberFormat('en', { maximumFractionDigits: 1, notation: 'compact' }).format(count);
}

export function formatCost(cost: { amount: number; currency: string }): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: cost.currency, maximumFractionDigits: cost.amount < 1 ? 4 : 2 }).format(cost.amount);
  } catch {
    // Agents name the currency: one Intl does not know is shown as the agent wrote it.
    return `${cost.amount} ${cost.currency}`;
  }
}

/** The last turn's tokens; agents that report no total have it summed from input and output. */
export function turnTotal(usage: Extract<UsageView, { kind: 'turn' }>): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** The meter's own short text: how full the window is, or the last turn's tokens. */
export function usageLabel(usage: UsageView): string {
  return usage.kind === 'context' ? `${Math.round(usage.percent)}%` : `${formatTokens(turnTotal(usage))} tokens last turn`;
}

/** One sentence with every number of the meter, for tooltips and screen readers. */
export function usageDescription(usage: UsageView): string {
  if (usage.kind === 'context') {
    const cost = usage.cost ? ` Cost so far: ${formatCost(usage.cost)}.` : '';
    return `Context window: ${usage.used.toLocaleString('en')} of ${usage.size.toLocaleString('en')} tokens used (${Math.round(usage.percent)}%).${cost}`;
  }
  const parts = [
    usage.inputTokens !== null ? `${usage.inputTokens.toLocaleString('en')} in` : null,
    usage.outputTokens !== null ? `${usage.outputTokens.toLocaleString('en')} out` : null,
    usage.totalTokens !== null ? `${usage.totalTokens.toLocaleString('en')} total` : null,
  ].filter(Boolean);
  return `Last turn: ${parts.join(', ')} tokens. This agent does not report its context window, so there is no percentage.`;
}
