import { markdownCode, markdownTable, markdownText } from '../util/markdownText';
import { amountText } from './amountText';
import type { UsageEntry } from './usageEntry';
import { addUp, lastDays, periodStarts, sortCost, totalsBy, type UsageTotal } from './usageTotals';

/** What the report is made of: the ledger's entries, the user's today, and where the ledger lives. */
export interface UsageReportInputs {
  entries: readonly UsageEntry[];
  /** The user's calendar day (YYYY-MM-DD). */
  today: string;
  ledgerFolder: string;
  /** Lines of the ledger that could not be read. */
  skipped: number;
}

const COSTLIEST_SHOWN = 10;
const DAYS_SHOWN = 30;

/** Cents and below shown to four decimals: a cheap turn is not $0.00. */
function money(amount: number, currency: string): string {
  return markdownText(amountText(amount, currency, amount < 1 ? 4 : 2));
}

/** A total's cost, each currency apart; "not reported" when no turn of it had a cost. */
function costCell(total: UsageTotal): string {
  if (total.costs.size === 0) return 'not reported';
  const costs = [...total.costs].map(([currency, amount]) => money(amount, currency)).join(' + ');
  return total.turnsWithCost < total.turns ? `${costs} (${total.turnsWithCost} of ${total.turns} turns priced)` : costs;
}

function tokensCell(total: UsageTotal): string {
  if (total.turnsWithTokens === 0) return 'not reported';
  const split = total.inputTokens + total.outputTokens > 0 ? ` (${total.inputTokens.toLocaleString('en-US')} in, ${total.outputTokens.toLocaleString('en-US')} out)` : '';
  return `${total.totalTokens.toLocaleString('en-US')}${split}`;
}

function totalRow(name: string, total: UsageTotal): string[] {
  return [name, String(total.turns), tokensCell(total), costCell(total)];
}

const HEADER = ['', 'Turns', 'Tokens', 'Cost'];

/** What each agent reports, from the turns it finished: the ledger can only add up what agents send. */
function reportsCell(total: UsageTotal): string {
  const parts = [total.turnsWithTokens > 0 ? 'tokens' : null, total.turnsWithCost > 0 ? 'cost' : null].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' and ') : 'neither tokens nor cost';
}

/**
 * The usage report as Markdown for the editor's preview: totals for today, this week and this
 * month; this month by agent (with what each reports), project and model; the last 30 days; and
 * the costliest conversations. Every figure is a sum of ledger entries; nothing is estimated.
 */
export function usageReport(inputs: UsageReportInputs): string {
  const { entries, today } = inputs;
  const starts = periodStarts(today);
  const since = (day: string) => entries.filter((entry) => entry.day >= day && entry.day <= today);
  const month = since(starts.month);
  const lines = ['# Usage', ''];
  lines.push(`${entries.length.toLocaleString('en-US')} turns recorded${entries[0] ? ` since ${entries[0].day}` : ''}, kept in ${markdownCode(inputs.ledgerFolder)}. Costs are what agents report; turns of agents that report none are counted without one.`, '');
  if (inputs.skipped > 0) lines.push(`${inputs.skipped} line(s) of the ledger could not be read and are left out.`, '');
  lines.push('## Totals', '', ...markdownTable(HEADER, [
    totalRow('Today', addUp(since(starts.today))),
    totalRow('This week', addUp(since(starts.week))),
    totalRow('This month', addUp(month)),
    totalRow('All recorded', addUp(entries)),
  ]));
  const labels = new Map(entries.map((entry) => [entry.agent, entry.agentLabel]));
  lines.push('## This month by agent', '', ...markdownTable(['Agent', 'Turns', 'Tokens', 'Cost', 'Reports'], totalsBy(month, (entry) => entry.agent)
    .map(([agent, total]) => [...totalRow(markdownText(labels.get(agent) ?? agent), total), reportsCell(total)])));
  lines.push('## This month by project', '', ...markdownTable(['Project', ...HEADER.slice(1)], totalsBy(month, (entry) => entry.project ?? '')
    .map(([project, total]) => totalRow(project ? markdownCode(project) : '_no folder_', total))));
  lines.push('## This month by model', '', ...markdownTable(['Model', ...HEADER.slice(1)], totalsBy(month, (entry) => entry.model ?? '')
    .map(([model, total]) => totalRow(model ? markdownText(model) : '_not named by the agent_', total))));
  const days = lastDays(today, DAYS_SHOWN);
  const byDay = new Map(totalsBy(entries.filter((entry) => entry.day >= (days[0] ?? today) && entry.day <= today), (entry) => entry.day));
  lines.push(`## Last ${DAYS_SHOWN} days`, '', ...markdownTable(['Day', ...HEADER.slice(1)], days.filter((day) => byDay.has(day)).reverse()
    .map((day) => totalRow(day, byDay.get(day)!))));
  lines.push('## Costliest conversations', '', ...markdownTable(['Conversation', 'Agent', 'Project', 'Turns', 'Cost', 'Last turn'], costliest(entries)
    .map(({ entries: turns, total }) => {
      const last = turns[turns.length - 1]!;
      return [markdownCode(last.sessionId ?? last.conversation), markdownText(last.agentLabel), last.project ? markdownCode(last.project) : '', String(total.turns), costCell(total), last.day];
    })));
  return lines.join('\n');
}

/** Conversations (by agent session) with a reported cost, costliest first. */
function costliest(entries: readonly UsageEntry[]): { entries: UsageEntry[]; total: UsageTotal }[] {
  const bySession = new Map<string, UsageEntry[]>();
  for (const entry of entries) {
    const key = `${entry.agent}\u0000${entry.sessionId ?? entry.conversation}`;
    const turns = bySession.get(key);
    if (turns) turns.push(entry);
    else bySession.set(key, [entry]);
  }
  return [...bySession.values()].map((turns) => ({ entries: turns, total: addUp(turns) }))
    .filter(({ total }) => total.turnsWithCost > 0)
    .sort((a, b) => sortCost(b.total) - sortCost(a.total))
    .slice(0, COSTLIEST_SHOWN);
}
