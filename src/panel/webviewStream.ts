import type { HostToWebview } from '../contract/messages';
import type { PanelState, ThreadDelta } from '../contract/viewModel';
import type { Disposable } from '../util/disposable';
import type { ConversationFeature } from './conversationFeature';
import { DeltaBatcher } from './deltaBatcher';
import type { OpenConversations } from './openConversations';
import type { MessageHandlers } from './panelMessages';

/**
 * The webview's side of the stream: nothing goes out before it says `ready`; then it gets a
 * snapshot of the active conversation, followed by small deltas. Another tab in front, or a
 * reloaded webview, gets a new snapshot, and whatever was pending for the old one is dropped.
 * The webview acknowledges each delta batch it applied, which paces the next one.
 */
export class WebviewStream implements Disposable {
  private ready = false;
  private readonly batcher: DeltaBatcher;
  private lastTabsJson = '';
  readonly handlers: MessageHandlers<'threadDeltasApplied'> = {
    threadDeltasApplied: (message) => this.batcher.acknowledge(message.batches),
  };

  constructor(
    private readonly post: (message: HostToWebview) => void,
    private readonly conversations: OpenConversations,
    private readonly conversation: ConversationFeature,
    private readonly state: () => PanelState,
  ) {
    this.batcher = new DeltaBatcher((deltas) => this.send({ type: 'threadDeltas', deltas }));
  }

  /** The webview said `ready`. */
  attach(): void {
    this.ready = true;
    this.snapshot();
  }

  /** The webview went away (hidden without retained context, or reloaded). */
  detach(): void {
    this.ready = false;
    this.batcher.discard();
    this.conversations.active.terminalFeed.discard();
  }

  send(message: HostToWebview): void {
    if (this.ready) this.post(message);
  }

  pushDelta(delta: ThreadDelta): void {
    if (this.ready) this.batcher.push(delta);
  }

  /** Deltas go out before a message that must not overtake them (a turn's end, a connection change). */
  flushDeltas(): void {
    this.batcher.flush();
  }

  snapshot(): void {
    const active = this.conversations.active;
    this.conversation.show(active.session);
    if (!this.ready) return;
    this.batcher.discard();
    active.terminalFeed.discard();
    this.lastTabsJson = JSON.stringify(this.conversations.view());
    this.post({ type: 'snapshot', state: this.state() });
    this.conversation.postAll();
  }

  /** Busy and waiting marks change often; the tab strip goes out only when it looks different. */
  tabsChanged(): void {
    const tabs = this.conversations.view();
    const json = JSON.stringify(tabs);
    if (json === this.lastTabsJson) return;
    this.lastTabsJson = json;
    this.send({ type: 'tabsChanged', tabs });
  }

  dispose(): void {
    this.batcher.dispose();
  }
}
