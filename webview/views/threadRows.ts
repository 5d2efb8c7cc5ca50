/**
 * The thread's rows that are not cards: agent text and thoughts (streamed markdown), plans,
 * notices and the line a turn ended on.
 */
import type { NoticeAction, PlanItemView, StopReasonView, ThreadEntry } from '../../src/contract/viewModel';
import { button, el, icon, textWithCode } from '../dom';
import { StreamingMarkdown } from '../streamingMarkdown';
import type { PostToHost } from '../vscodeApi';

/** An entry's element, and the markdown that streams into it for text entries. */
export interface Row {
  element: HTMLElement;
  markdown: StreamingMarkdown | null;
}

const stopReasonText: Record<StopReasonView, string | null> = {
  end_turn: null,
  cancelled: 'Stopped: you cancelled this turn.',
  max_tokens: 'Stopped: the agent reached its output token limit.',
  max_turn_requests: 'Stopped: the agent reached its limit of requests for one turn.',
  refusal: 'Stopped: the agent refused to continue.',
  error: 'The turn failed.',
};

const actionLabels: Record<NoticeAction, string> = { showLog: 'Show log', restartAgent: 'Restart', showTraffic: 'Show traffic', budgetSettings: 'Budget settings' };

const noticeIcons = { error: 'error', warning: 'warning', info: 'info' } as const;

const planIcons = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', completed: 'pass-filled' } as const;

export function plainRow(element: HTMLElement): Row {
  return { element, markdown: null };
}

export function markdownRow(entry: Extract<ThreadEntry, { kind: 'agentMessage' | 'thought' }>): Row {
  const body = el('div', { class: entry.kind === 'thought' ? 'markdown thought-body' : 'markdown' });
  const markdown = new StreamingMarkdown(body);
  markdown.append(entry.text);
  const element = entry.kind === 'thought'
    ? el('details', { class: 'entry thought', 'data-entry-id': entry.id, open: '' }, el('summary', {}, icon('lightbulb'), ' Thinking'), body)
    : el('div', { class: 'entry agent-message', 'data-entry-id': entry.id }, body);
  return { element, markdown };
}

export function renderTurnEnded(entry: Extract<ThreadEntry, { kind: 'turnEnded' }>): HTMLElement {
  const text = stopReasonText[entry.stopReason];
  if (text === null) return el('div', { class: 'entry turn-ended quiet', 'data-entry-id': entry.id, 'data-stop-reason': entry.stopReason });
  const detail = entry.detail ? ` ${entry.detail}` : '';
  return el('div', { class: `entry turn-ended reason-${entry.stopReason}`, 'data-entry-id': entry.id, 'data-stop-reason': entry.stopReason, role: 'status' },
    icon(entry.stopReason === 'cancelled' ? 'debug-stop' : 'warning'), el('span', {}, textWithCode(`${text}${detail}`)));
}

export function renderNotice(entry: Extract<ThreadEntry, { kind: 'notice' }>, post: PostToHost): HTMLElement {
  const actions = entry.actions.map((action) => button(actionLabels[action], { secondary: true, onClick: () => post({ type: 'runAction', action }) }));
  return el('div', { class: `entry notice severity-${entry.severity}`, 'data-entry-id': entry.id, role: entry.severity === 'error' ? 'alert' : 'status' },
    icon(noticeIcons[entry.severity]),
    el('span', { class: 'notice-text' }, textWithCode(entry.text)),
    actions.length > 0 ? el('div', { class: 'notice-actions' }, ...actions) : null);
}

export function renderPlan(id: string, items: PlanItemView[], stopped: boolean): HTMLElement {
  const done = items.filter((item) => item.status === 'completed').length;
  return el('div', { class: `entry plan${stopped ? ' stopped' : ''}`, 'data-entry-id': id },
    el('div', { class: 'plan-header' }, icon('checklist'), ` Plan ${done}/${items.length}`),
    el('ol', { class: 'plan-items' }, ...items.map((item) => el('li', { class: `plan-item plan-${item.status}` }, icon(planIcons[item.status]), ` ${item.content}`))));
}
