import type { PlanItemView, StopReasonView, ThreadDelta, ThreadEntry } from '../../src/contract/viewModel';
import { button, el, icon, textWithCode } from '../dom';
import { StreamingMarkdown } from '../streamingMarkdown';
import { postToHost } from '../vscodeApi';
import { renderToolCard } from './toolCard';
import { renderElicitation } from './elicitationForm';
import { placeRow, rowUpdated } from './toolGroups';

interface Row {
  entry: ThreadEntry;
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

/**
 * The conversation. Entries are keyed by id; streamed text is appended and rendered once per
 * animation frame, and the view follows new content unless the user scrolled up.
 */
export class ThreadView {
  private readonly rows = new Map<string, Row>();
  private dirty = new Set<Row>();
  private frameRequested = false;
  private followBottom = true;

  constructor(private readonly container: HTMLElement) {
    container.addEventListener('scroll', () => {
      this.followBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
    });
    container.addEventListener('click', (event) => {
      const anchor = (event.target as HTMLElement).closest('a');
      if (!anchor || anchor.classList.contains('location-link')) return;
      event.preventDefault();
      const href = anchor.getAttribute('href');
      if (href && href !== '#') postToHost({ type: 'openLink', href });
    });
  }

  /** Pending changes moved: edit cards show the current hunks. */
  refreshDiffCards(): void {
    for (const row of [...this.rows.values()]) {
      if (row.entry.kind === 'toolCall' && row.entry.tool.content.some((content) => content.type === 'diff')) this.update(row.entry);
    }
  }

  reset(entries: ThreadEntry[]): void {
    this.rows.clear();
    this.dirty.clear();
    this.container.replaceChildren();
    for (const entry of entries) this.add(entry);
    this.renderEmptyState();
    this.followBottom = true;
    this.scheduleFrame();
  }

  apply(deltas: ThreadDelta[]): void {
    for (const delta of deltas) {
      switch (delta.type) {
        case 'entryAdded':
          this.add(delta.entry);
          break;
        case 'entryUpdated':
          this.update(delta.entry);
          break;
        case 'textAppended':
          this.appendText(delta.entryId, delta.text);
          break;
        case 'threadCleared':
          this.reset([]);
          break;
      }
    }
    this.scheduleFrame();
  }

  private add(entry: ThreadEntry): void {
    this.container.querySelector('.empty-state')?.remove();
    const row = this.createRow(entry);
    this.rows.set(entry.id, row);
    placeRow(this.container, row.element, entry);
    // A new non-thought entry means the agent is done thinking: fold earlier thoughts.
    if (entry.kind !== 'thought') {
      for (const details of this.container.querySelectorAll<HTMLDetailsElement>('details.thought[open]')) details.open = false;
    }
    if (row.markdown) this.dirty.add(row);
  }

  private update(entry: ThreadEntry): void {
    const row = this.rows.get(entry.id);
    if (!row) return this.add(entry);
    const next = this.createRow(entry);
    row.element.replaceWith(next.element);
    rowUpdated(next.element, entry);
    this.rows.set(entry.id, next);
    if (next.markdown) this.dirty.add(next);
  }

  private appendText(entryId: string, text: string): void {
    const row = this.rows.get(entryId);
    if (!row) return;
    const { entry } = row;
    if (entry.kind === 'agentMessage' || entry.kind === 'thought' || entry.kind === 'user') entry.text += text;
    if (row.markdown) {
      row.markdown.append(text);
      this.dirty.add(row);
    } else if (entry.kind === 'user') {
      const body = row.element.querySelector('.user-text');
      if (body) body.textContent = entry.text;
    }
  }

  private createRow(entry: ThreadEntry): Row {
    switch (entry.kind) {
      case 'user':
        return { entry, element: el('div', { class: 'entry user-message', 'data-entry-id': entry.id }, el('div', { class: 'user-text' }, entry.text)), markdown: null };
      case 'agentMessage': {
        const body = el('div', { class: 'markdown' });
        const markdown = new StreamingMarkdown(body);
        markdown.append(entry.text);
        return { entry, element: el('div', { class: 'entry agent-message', 'data-entry-id': entry.id }, body), markdown };
      }
      case 'thought': {
        const body = el('div', { class: 'markdown thought-body' });
        const markdown = new StreamingMarkdown(body);
        markdown.append(entry.text);
        const details = el('details', { class: 'entry thought', 'data-entry-id': entry.id, open: '' }, el('summary', {}, icon('lightbulb'), ' Thinking'), body);
        return { entry, element: details, markdown };
      }
      case 'toolCall':
        return { entry, element: el('div', { class: 'entry', 'data-entry-id': entry.id }, renderToolCard(entry.tool)), markdown: null };
      case 'plan':
        return { entry, element: renderPlan(entry.id, entry.items), markdown: null };
      case 'turnEnded': {
        const text = stopReasonText[entry.stopReason];
        const detail = entry.detail ? ` ${entry.detail}` : '';
        const element = text === null
          ? el('div', { class: 'entry turn-ended quiet', 'data-entry-id': entry.id, 'data-stop-reason': entry.stopReason })
          : el('div', { class: `entry turn-ended reason-${entry.stopReason}`, 'data-entry-id': entry.id, 'data-stop-reason': entry.stopReason, role: 'status' },
            icon(entry.stopReason === 'cancelled' ? 'debug-stop' : 'warning'), el('span', {}, textWithCode(`${text}${detail}`)));
        return { entry, element, markdown: null };
      }
      case 'notice': {
        const actions = entry.actions.map((action) => button(actionLabels[action], {
          secondary: true,
          onClick: () => postToHost({ type: 'runAction', action }),
        }));
        const element = el('div', { class: `entry notice severity-${entry.severity}`, 'data-entry-id': entry.id, role: entry.severity === 'error' ? 'alert' : 'status' },
          icon(entry.severity === 'error' ? 'error' : entry.severity === 'warning' ? 'warning' : 'info'),
          el('span', { class: 'notice-text' }, textWithCode(entry.text)),
          actions.length > 0 ? el('div', { class: 'notice-actions' }, ...actions) : null);
        return { entry, element, markdown: null };
      }
      case 'elicitation':
        return { entry, element: el('div', { class: 'entry', 'data-entry-id': entry.id }, renderElicitation(entry.elicitation)), markdown: null };
    }
  }

  private renderEmptyState(): void {
    if (this.rows.size > 0) return;
    this.container.append(el('div', { class: 'empty-state' },
      icon('comment-discussion', 'empty-icon'),
      el('p', {}, 'Ask the agent anything about this workspace.'),
      el('p', { class: 'hint' }, 'Enter sends, Shift+Enter adds a line. Every JSON-RPC frame is in Tandem: Show Traffic.')));
  }

  private scheduleFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      const unfinished = [...this.dirty].filter((row) => row.markdown?.render() === true);
      this.dirty = new Set(unfinished);
      if (this.followBottom) this.container.scrollTop = this.container.scrollHeight;
      if (unfinished.length > 0) this.scheduleFrame();
    });
  }
}

const actionLabels = { showLog: 'Show log', restartAgent: 'Restart', showTraffic: 'Show traffic' } as const;

const planIcons = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', completed: 'pass-filled' } as const;

function renderPlan(id: string, items: PlanItemView[]): HTMLElement {
  const done = items.filter((item) => item.status === 'completed').length;
  return el('div', { class: 'entry plan', 'data-entry-id': id },
    el('div', { class: 'plan-header' }, icon('checklist'), ` Plan ${done}/${items.length}`),
    el('ol', { class: 'plan-items' }, ...items.map((item) => el('li', { class: `plan-item plan-${item.status}` }, icon(planIcons[item.status]), ` ${item.content}`))));
}
