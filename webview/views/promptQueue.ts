import { button, el, icon } from '../dom';
import type { PromptContext } from './attachments';

export interface QueuedPrompt extends PromptContext {
  id: number;
  text: string;
}

export interface QueueActions {
  /** Put the message back in the box for editing. */
  edit(prompt: QueuedPrompt): void;
  /** Stop the running turn; this message goes next. */
  sendNow(prompt: QueuedPrompt): void;
}

/** Messages typed while a turn runs; each is sent when the turn before it ends. */
export class PromptQueue {
  readonly element = el('section', { class: 'prompt-queue', id: 'prompt-queue', 'aria-label': 'Queued messages', hidden: '' });
  private items: QueuedPrompt[] = [];
  private nextId = 1;

  constructor(private readonly actions: QueueActions) {}

  get length(): number {
    return this.items.length;
  }

  add(text: string, context: PromptContext): void {
    this.items.push({ id: this.nextId++, text, ...context });
    this.render();
  }

  /** The next message to send, removed from the queue. */
  shift(): QueuedPrompt | undefined {
    const next = this.items.shift();
    this.render();
    return next;
  }

  private remove(id: number): QueuedPrompt | undefined {
    const item = this.items.find((candidate) => candidate.id === id);
    this.items = this.items.filter((candidate) => candidate.id !== id);
    this.render();
    return item;
  }

  private moveToFront(id: number): void {
    const item = this.remove(id);
    if (item) this.items.unshift(item);
    this.render();
  }

  private render(): void {
    this.element.hidden = this.items.length === 0;
    this.element.replaceChildren(
      ...(this.items.length > 0 ? [el('div', { class: 'queue-title' }, icon('clock'), ` Queued (${this.items.length}): sent when the agent is done`)] : []),
      ...this.items.map((item) => el('div', { class: 'queue-item', 'data-queue-id': String(item.id) },
        el('span', { class: 'queue-text', title: item.text }, item.text),
        el('span', { class: 'queue-actions' },
          button('', { icon: 'edit', secondary: true, title: 'Edit this message', onClick: () => {
            const removed = this.remove(item.id);
            if (removed) this.actions.edit(removed);
          } }),
          button('', { icon: 'trash', secondary: true, title: 'Remove this message', onClick: () => this.remove(item.id) }),
          button('Send now', { icon: 'send', secondary: true, title: 'Stop the agent and send this message now', onClick: () => {
            this.moveToFront(item.id);
            this.actions.sendNow(item);
          } })))));
  }
}
