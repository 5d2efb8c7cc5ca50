import type { FrameRowView } from '../../src/contract/inspectorView';
import { el } from '../dom';
import { directionLabel, frameLabel, latencyLabel, sizeLabel, timeLabel } from './rowText';

export interface DetailActions {
  showInThread(toolCallId: string): void;
  showToolCall(toolCallId: string): void;
  select(index: number): void;
}

function action(label: string, onClick: () => void): HTMLButtonElement {
  const node = el('button', { type: 'button' }, label);
  node.addEventListener('click', onClick);
  return node;
}

/** The selected frame: what it is, where it links (its pair, its tool call, its card), and its text. */
export class DetailPane {
  readonly element: HTMLElement;
  private readonly heading = el('div', { class: 'detail-heading' });
  private readonly facts = el('div', { class: 'detail-facts' });
  private readonly actions = el('div', { class: 'detail-actions' });
  private readonly body = el('pre', { class: 'detail-text', tabindex: '0', 'aria-label': 'Frame text' });

  constructor(private readonly handlers: DetailActions) {
    this.element = el('section', { class: 'detail', 'aria-label': 'Frame details' }, this.heading, this.facts, this.actions, this.body);
    this.clear();
  }

  clear(): void {
    this.heading.textContent = 'Select a frame to see its text.';
    this.facts.replaceChildren();
    this.actions.replaceChildren();
    this.body.textContent = '';
  }

  show(row: FrameRowView, text: string, inThread: boolean): void {
    this.heading.textContent = `#${row.index + 1} ${directionLabel(row)} ${frameLabel(row)}`;
    const facts = [timeLabel(row.at), sizeLabel(row.size), latencyLabel(row), row.sessionId ? `session ${row.sessionId}` : '', row.connection === null ? '' : `connection ${row.connection}`].filter(Boolean);
    this.facts.replaceChildren(facts.join(' · '), ...(row.mark ? [el('div', { class: `detail-mark mark-${row.mark.kind}` }, `${row.mark.kind}: ${row.mark.reason}`)] : []));
    const buttons: HTMLElement[] = [];
    const toolCallId = row.toolCallId;
    if (row.pair !== null) {
      const pair = row.pair;
      buttons.push(action(row.kind === 'request' ? 'Go to the answer' : 'Go to the request', () => this.handlers.select(pair)));
    }
    if (toolCallId) {
      buttons.push(action('Frames of this tool call', () => this.handlers.showToolCall(toolCallId)));
      if (inThread) buttons.push(action('Show in thread', () => this.handlers.showInThread(toolCallId)));
    }
    this.actions.replaceChildren(...buttons);
    this.body.textContent = text;
  }
}
