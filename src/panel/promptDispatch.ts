import type { QueueAction } from '../contract/conversationView';
import { assertNever } from '../util/assertNever';
import { errorMessage } from '../redaction/redactedLog';
import type { ConversationFeature } from './conversationFeature';
import type { PromptInput } from '../conversation/promptQueue';
import type { PromptContributor } from './promptContributors';
import type { SessionTab } from './sessionTab';

/**
 * How a conversation's messages go out: straight to the agent when it is idle, else into the
 * tab's queue, which advances each time a turn ends. Stopping the agent holds the queue until
 * the user sends again or picks Send now; so does an agent that is no longer ready.
 */
export class PromptDispatcher {
  /** Tabs whose next prompt is being prepared (attachments read) but not yet a running turn. */
  private readonly submitting = new WeakSet<SessionTab>();

  constructor(
    private readonly conversation: ConversationFeature,
    /** What goes with every message, in this order (see promptContributors.ts). */
    private readonly contributors: () => readonly PromptContributor[] = () => [],
  ) {}

  async send(tab: SessionTab, prompt: PromptInput): Promise<void> {
    if (!this.busy(tab) && tab.queue.length === 0) return this.submit(tab, prompt);
    if (!tab.queue.add(prompt)) tab.session.thread.addNotice('warning', 'Too many queued messages: this one was not queued.');
    // Sending again is the user's go-ahead for a queue held by an earlier Stop.
    tab.queue.resume();
    return this.sendNext(tab);
  }

  /**
   * A turn ended: the next queued message goes out unless the turn failed or the agent stopped
   * working (a crash can end the turn before the process is seen to exit). Then the queue waits
   * for the user, whose next send starts the agent again if need be.
   */
  async turnEnded(tab: SessionTab): Promise<void> {
    const { thread } = tab.session;
    const last = thread.entryAt(thread.length - 1);
    const failed = last?.kind === 'turnEnded' && last.stopReason === 'error';
    if (tab.queue.length > 0 && (failed || tab.session.connectionView.phase !== 'ready')) {
      tab.queue.pause();
      return;
    }
    await this.sendNext(tab);
  }

  /** The user stopped the agent: what is queued waits for them. */
  async cancel(tab: SessionTab): Promise<void> {
    tab.queue.pause();
    await tab.session.cancel();
  }

  /** `edit` hands the message back to the composer (which keeps its own copy of the text). */
  async act(tab: SessionTab, action: QueueAction, id: string): Promise<void> {
    switch (action) {
      case 'edit':
      case 'remove':
        tab.queue.take(id);
        return;
      case 'sendNow':
        if (!tab.queue.moveToFront(id)) return;
        tab.queue.resume();
        // The cancelled turn's end advances the queue.
        if (tab.session.turnView.running) await tab.session.cancel();
        else await this.sendNext(tab);
        return;
      case 'steer':
        return this.steer(tab, id);
      default:
        assertNever(action, 'queue action');
    }
  }

  /** Steer: the queued message goes into the running turn; one the agent does not take stays first in line. */
  private async steer(tab: SessionTab, id: string): Promise<void> {
    const item = tab.queue.take(id);
    if (!item) return;
    const { blocks } = await this.conversation.promptAttachments(tab.session, item.mentions, item.images);
    if (await tab.session.steer(item.text, blocks)) return;
    tab.queue.putBack(item);
    await this.sendNext(tab);
  }

  private busy(tab: SessionTab): boolean {
    return tab.session.turnView.running || this.submitting.has(tab);
  }

  /** The next queued message, if the tab is free; prompt() starts the agent when it is not running. */
  private async sendNext(tab: SessionTab): Promise<void> {
    if (this.busy(tab)) return;
    const next = tab.queue.next();
    if (next) await this.submit(tab, next);
  }

  private async submit(tab: SessionTab, prompt: PromptInput): Promise<void> {
    let turn: Promise<void>;
    this.submitting.add(tab);
    try {
      const { blocks, refused } = await this.conversation.promptAttachments(tab.session, prompt.mentions, prompt.images);
      if (refused) tab.session.thread.addNotice('warning', refused);
      // Prepared before the agent gets the message: whatever changes from here on is after it.
      const contributors = this.contributors();
      for (const contributor of contributors) await contributor.prepare?.(tab, prompt.text);
      const taken = contributors.map((contributor) => contributor.take(tab, !isSlashCommand(prompt.text)));
      // prompt() marks the turn running before it first waits, so the tab is busy from here on.
      turn = tab.session.prompt(prompt.text, taken.flatMap((take) => take.notes), blocks);
      // It has put the user's message in the thread: what went with it shows right under it.
      for (const take of taken) take.sent?.();
    } catch (error) {
      tab.session.thread.addNotice('error', `The message could not be sent: ${errorMessage(error)}`, ['showLog']);
      return;
    } finally {
      this.submitting.delete(tab);
    }
    await turn.catch((error: unknown) => tab.session.thread.addNotice('error', `The message could not be sent: ${errorMessage(error)}`, ['showLog']));
  }
}

/** Whether `text` is a slash command as agents read one: a `/name` at the very start. */
export function isSlashCommand(text: string): boolean {
  return /^\/[^\s/]/.test(text);
}
