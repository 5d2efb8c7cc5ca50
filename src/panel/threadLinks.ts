import type { HostToWebview } from '../contract/messages';
import type { OpenConversations } from './openConversations';
import type { MessageHandlers } from './panelMessages';

/** A reveal asked for while the panel was away (hidden, reloading) is still done if it comes back this soon. */
const REVEAL_PENDING_MS = 10_000;

/**
 * The links between the chat panel and the frame inspector: a card's "Show frames" asks the
 * editor for the inspector filtered to that tool call; the inspector's "Show in thread" brings
 * the card's conversation to the front and the card into view.
 */
export class ThreadLinks {
  readonly handlers: MessageHandlers<'showFrames'>;
  private pending: { toolCallId: string; at: number } | null = null;

  constructor(
    private readonly tabs: OpenConversations,
    private readonly send: (message: HostToWebview) => void,
    showFrames: ((toolCallId: string) => void) | undefined,
  ) {
    this.handlers = { showFrames: (message) => showFrames?.(message.toolCallId) };
  }

  /** False when no open conversation shows that tool call. */
  reveal(toolCallId: string): boolean {
    const tab = this.tabs.withToolCall(toolCallId);
    if (!tab) return false;
    // Selecting sends the tab's snapshot first, so the card is there when the reveal arrives.
    if (!this.tabs.isActive(tab)) void this.tabs.handlers.selectTab({ type: 'selectTab', tabId: tab.id });
    this.pending = { toolCallId, at: Date.now() };
    this.send({ type: 'revealToolCall', toolCallId });
    return true;
  }

  /** The panel (re)loaded and took its snapshot: a reveal it missed while away is done now. */
  viewReady(): void {
    const pending = this.pending;
    this.pending = null;
    if (pending && Date.now() - pending.at < REVEAL_PENDING_MS) this.send({ type: 'revealToolCall', toolCallId: pending.toolCallId });
  }
}
