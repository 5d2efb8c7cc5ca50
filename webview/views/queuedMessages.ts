import type { PromptQueueView, QueueAction, QueuedPromptView } from '../../src/contract/conversationView';
import { el, icon, iconButton } from '../dom';
import type { PostToHost } from '../vscodeApi';

/**
 * The messages waiting for the running turn, as the host keeps them: each can be edited (back
 * into the box), removed, sent now (which stops the agent first), or, when the agent takes
 * messages into a running turn, steered in without stopping it.
 */
export class QueuedMessagesView {
  readonly element = el('section', { class: 'prompt-queue', id: 'prompt-queue', 'aria-label': 'Queued messages', hidden: '' });

  /** `edit`: the composer takes the message back. */
  constructor(private readonly post: PostToHost, private readonly edit: (prompt: QueuedPromptView) => void) {}

  /** One row per message, its actions as icon buttons; the title row only says the queue is on hold, which a user must know. */
  render(queue: PromptQueueView): void {
    const { items, paused } = queue;
    this.element.hidden = items.length === 0;
    const title = paused ? `Queued (${items.length}), on hold after the turn stopped: Send now, or send another message to go on` : `Queued (${items.length}): sent when the agent is done`;
    this.element.setAttribute('aria-label', title);
    this.element.replaceChildren(
      ...(items.length > 0 && paused ? [el('div', { class: 'queue-title' }, icon('debug-pause'), ` ${title}`)] : []),
      ...items.map((item) => el('div', { class: 'queue-item', 'data-queue-id': item.id },
        el('span', { class: 'queue-icon', title, 'aria-hidden': 'true' }, icon(paused ? 'debug-pause' : 'clock')),
        el('span', { class: 'queue-text', title: item.text }, item.text),
        el('span', { class: 'queue-actions' },
          iconButton('Edit this message', 'edit', { title: 'Edit this message: back into the box', onClick: () => {
            this.act('edit', item);
            this.edit(item);
          } }),
          iconButton('Remove this message', 'trash', { title: 'Remove this message', onClick: () => this.act('remove', item) }),
          ...(queue.steerable ? [iconButton('Steer', 'debug-step-into', { title: 'Steer: send this into the running turn, the agent reads it without stopping', onClick: () => this.act('steer', item) })] : []),
          iconButton('Send now', 'send', { title: 'Send now: stop the agent and send this message', onClick: () => this.act('sendNow', item) })))));
  }

  private act(action: QueueAction, item: QueuedPromptView): void {
    this.post({ type: 'queueAction', action, id: item.id });
  }
}
