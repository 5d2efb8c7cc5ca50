import type { PromptQueueView, QueueAction, QueuedPromptView } from '../../src/contract/conversationView';
import { button, el, icon } from '../dom';
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

  render(queue: PromptQueueView): void {
    const { items, paused } = queue;
    this.element.hidden = items.length === 0;
    const title = paused ? ` Queued (${items.length}), on hold after the turn stopped: Send now, or send another message to go on` : ` Queued (${items.length}): sent when the agent is done`;
    this.element.replaceChildren(
      ...(items.length > 0 ? [el('div', { class: 'queue-title' }, icon(paused ? 'debug-pause' : 'clock'), title)] : []),
      ...items.map((item) => el('div', { class: 'queue-item', 'data-queue-id': item.id },
        el('span', { class: 'queue-text', title: item.text }, item.text),
        el('span', { class: 'queue-actions' },
          button('', { icon: 'edit', secondary: true, title: 'Edit this message', onClick: () => {
            this.act('edit', item);
            this.edit(item);
          } }),
          button('', { icon: 'trash', secondary: true, title: 'Remove this message', onClick: () => this.act('remove', item) }),
          ...(queue.steerable ? [button('Steer', { icon: 'debug-step-into', secondary: true, title: 'Send this into the running turn: the agent reads it without stopping', onClick: () => this.act('steer', item) })] : []),
          button('Send now', { icon: 'send', secondary: true, title: 'Stop the agent and send this message now', onClick: () => this.act('sendNow', item) })))));
  }

  private act(action: QueueAction, item: QueuedPromptView): void {
    this.post({ type: 'queueAction', action, id: item.id });
  }
}
