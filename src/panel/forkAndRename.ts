import type { OpenConversations } from './openConversations';
import type { MessageHandlers } from './panelMessages';
import type { WebviewStream } from './webviewStream';

/** A conversation's copy in a new tab (where the agent can fork), and the user's own title for a tab. */
export class ForkAndRename {
  readonly handlers: MessageHandlers<'forkTab' | 'renameTab'> = {
    forkTab: (message) => this.fork(message.tabId),
    renameTab: (message) => this.rename(message.tabId, message.title),
  };

  constructor(
    private readonly conversations: OpenConversations,
    private readonly view: WebviewStream,
    private readonly changed: () => void,
  ) {}

  /** The fork starts with the original's transcript; what is sent there does not reach the original. */
  private async fork(tabId: string): Promise<void> {
    const source = this.conversations.find(tabId);
    const sessionId = source?.session.currentSessionId;
    if (!source || !sessionId || !source.session.history.fork) return;
    const fork = this.conversations.open(source.agent);
    fork.session.thread.restore(source.session.thread.snapshot());
    fork.session.thread.setFact('title', `${source.title} (fork)`);
    fork.session.thread.addNotice('info', `Forked from "${source.title}": what you send here does not change the original conversation.`);
    await fork.openExisting({ kind: 'fork', sessionId }, 'fork the session');
    this.view.tabsChanged();
  }

  private rename(tabId: string, title: string): void {
    const tab = this.conversations.find(tabId);
    if (!tab) return;
    tab.session.thread.setFact('title', title.trim());
    this.view.tabsChanged();
    this.changed();
  }
}
