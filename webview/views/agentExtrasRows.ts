import { compactionText, rateLimitText, type RateLimitView, type SteerOutcomeView } from '../../src/contract/agentExtrasView';
import { parentOf, subagentSummary, subagentSummaryText } from '../../src/contract/subagentSummary';
import { formatTokens } from '../../src/contract/usageText';
import type { ThreadEntry } from '../../src/contract/viewModel';
import { el, icon, spinner } from '../dom';

const compactionIcons = { in_progress: 'loading', completed: 'fold', failed: 'error', cancelled: 'circle-slash' } as const;

/** "Context compacted: 150K tokens -> 12K", with the agent's summary folded under it. */
export function renderCompaction(entry: Extract<ThreadEntry, { kind: 'compaction' }>): HTMLElement {
  const { compaction } = entry;
  const line = el('span', { class: 'compaction-text' }, compactionText(compaction, formatTokens));
  const glyph = (compaction.status === 'in_progress' ? spinner : icon)(compactionIcons[compaction.status]);
  const attrs = { class: `entry compaction status-${compaction.status}`, 'data-entry-id': entry.id, role: 'status' };
  if (!compaction.summary) return el('div', attrs, glyph, line);
  return el('details', attrs, el('summary', {}, glyph, line), el('div', { class: 'compaction-summary' }, compaction.summary));
}

const steeredText: Record<SteerOutcomeView, string> = {
  injected: 'Steered into the running turn',
  startedNewTurn: 'Steered, and the agent started a new turn for it',
};

/** Under a user message that went into a running turn: what the agent did with it. */
export function steeredNote(steered: SteerOutcomeView | undefined): HTMLElement | null {
  return steered ? el('div', { class: 'steered-note' }, icon('debug-step-into'), ` ${steeredText[steered]}`) : null;
}

const nestSelector = ':scope > details.subagent-work';

/**
 * A subagent's tool call or message goes inside the card of the tool call that runs it, folded
 * (the user opens it to see the work). False when the entry is not a subagent's or its card is
 * not drawn: the caller places it as usual.
 */
export function nestUnderParent(container: HTMLElement, element: HTMLElement, entry: ThreadEntry, entries: readonly ThreadEntry[]): boolean {
  const parentId = parentOf(entry);
  if (!parentId) return false;
  const parentRow = [...container.querySelectorAll<HTMLElement>('article.tool-card[data-tool-call-id]')]
    .find((card) => card.dataset.toolCallId === parentId)?.closest<HTMLElement>('.entry');
  if (!parentRow) return false;
  let nest = parentRow.querySelector<HTMLDetailsElement>(nestSelector);
  if (!nest) {
    nest = el('details', { class: 'subagent-work', 'data-subagent-of': parentId }, el('summary', { class: 'subagent-summary' }), el('div', { class: 'subagent-body' }));
    parentRow.append(nest);
  }
  nest.querySelector(':scope > .subagent-body')?.append(element);
  refreshNest(nest, entries);
  return true;
}

/** A card drawn again keeps its subagent's work (the nest moves to the new element). */
export function carryNest(previous: HTMLElement, next: HTMLElement): void {
  const nest = previous.querySelector(nestSelector);
  if (nest) next.append(nest);
}

/** After a row inside a nest changed: the nest's count of tool calls, messages and files follows. */
export function refreshNestOf(element: HTMLElement, entries: readonly ThreadEntry[]): void {
  const nest = element.parentElement?.closest<HTMLDetailsElement>('details.subagent-work');
  if (nest) refreshNest(nest, entries);
}

function refreshNest(nest: HTMLDetailsElement, entries: readonly ThreadEntry[]): void {
  const summary = subagentSummary(entries, nest.dataset.subagentOf ?? '');
  nest.querySelector(':scope > summary')?.replaceChildren(icon('organization'), ` ${subagentSummaryText(summary)}`);
}

/** The plan limits beside the context meter (hidden when the agent reports none). */
export class RateLimitsView {
  readonly element = el('span', { class: 'rate-limits', id: 'rate-limits', hidden: '' });
  private lastKey = '';

  render(limits: readonly RateLimitView[]): void {
    const key = JSON.stringify(limits);
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.element.hidden = limits.length === 0;
    this.element.replaceChildren(...limits.map((limit) => {
      const text = rateLimitText(limit);
      const short = limit.status === 'rejected' ? 'limit' : limit.percent !== null ? `${Math.round(limit.percent)}%` : '!';
      return el('span', { class: `rate-limit status-${limit.status}`, 'data-window': limit.window, title: text, 'aria-label': text, role: 'status' },
        icon(limit.window === 'five_hour' ? 'watch' : 'calendar'), ` ${short}`);
    }));
  }
}
