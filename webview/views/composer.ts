import type { ConversationStore } from '../conversationStore';
import { el } from '../dom';
import type { HostChannel, LocalState } from '../vscodeApi';
import { Attachments, type PromptContext } from './attachments';
import { CompletionList, findTrigger, matchCommands, MentionSource, type CompletionItem, type Trigger } from './completion';
import type { MentionView, PromptQueueView } from '../../src/contract/conversationView';
import { QueuedMessagesView } from './queuedMessages';

type TextArea = HTMLElement & { value: string; wrappedElement?: HTMLTextAreaElement };

/**
 * The message box: Enter sends, Shift+Enter adds a line, Escape or Stop cancels the turn.
 * `/` completes the agent's commands, `@` workspace files, folders, open editors and the
 * selection; images can be pasted or dropped. While a turn runs, messages are queued (by the host).
 */
export class ComposerView {
  readonly element: HTMLElement;
  /** Where the session's pickers and meter go (below the box). */
  readonly toolbar = el('div', { class: 'composer-toolbar' });
  private readonly input: TextArea;
  private readonly sendButton: HTMLElement;
  private readonly hint = el('div', { class: 'command-hint', id: 'command-hint', hidden: '' });
  private readonly completion = new CompletionList();
  private readonly attachments: Attachments;
  private readonly mentions: MentionSource;
  private readonly queue: QueuedMessagesView;
  private running = false;
  private readonly local: LocalState;
  private historyIndex: number | null = null;
  private trigger: Trigger | null = null;

  constructor(private readonly host: HostChannel, private readonly conversation: ConversationStore) {
    this.local = host.loadLocalState();
    this.attachments = new Attachments(conversation);
    this.mentions = new MentionSource(host.post);
    this.input = document.createElement('vscode-textarea') as TextArea;
    this.input.id = 'composer-input';
    this.input.setAttribute('rows', '3');
    this.input.setAttribute('resize', 'vertical');
    this.input.setAttribute('placeholder', 'Message the agent (Enter to send, Shift+Enter for a new line, / for commands, @ to mention files)');
    this.input.setAttribute('aria-label', 'Message to the agent');
    this.input.value = this.local.draft;
    this.input.addEventListener('input', () => {
      this.local.draft = this.input.value;
      this.host.saveLocalState(this.local);
      this.updateCompletion();
    });
    this.input.addEventListener('keydown', (event: KeyboardEvent) => this.onKey(event));
    this.input.addEventListener('blur', () => this.completion.hide());
    this.input.addEventListener('paste', (event: ClipboardEvent) => void this.takeFiles(event, [...(event.clipboardData?.files ?? [])]));
    this.sendButton = document.createElement('vscode-button');
    this.sendButton.id = 'send-button';
    this.sendButton.addEventListener('click', () => (this.running && !this.input.value.trim() ? this.stop() : this.send()));
    this.queue = new QueuedMessagesView(host.post, (prompt) => {
      this.input.value = prompt.text;
      this.attachments.restore(prompt);
      this.input.focus();
    });
    this.element = el('footer', { class: 'composer' },
      this.queue.element, this.completion.element, this.attachments.element, this.input, this.hint, this.attachments.status,
      el('div', { class: 'composer-actions' }, this.toolbar, this.sendButton));
    this.element.addEventListener('dragover', (event) => event.preventDefault());
    this.element.addEventListener('drop', (event: DragEvent) => void this.takeFiles(event, [...(event.dataTransfer?.files ?? [])]));
    this.setRunning(false);
  }

  focus(): void {
    this.input.focus();
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.sendButton.textContent = running ? 'Stop' : 'Send';
    this.sendButton.setAttribute('icon', running ? 'debug-stop' : 'send');
    this.sendButton.setAttribute('title', running ? 'Stop the agent (Escape); type to queue a message' : 'Send (Enter)');
    this.sendButton.toggleAttribute('secondary', running);
    document.body.dataset.turn = running ? 'running' : 'idle';
  }

  setQueue(queue: PromptQueueView): void {
    this.queue.render(queue);
  }

  /** The host answered an `@` request. */
  mentionCandidates(requestId: number, items: MentionView[]): void {
    this.mentions.answer(requestId, items);
  }

  private onKey(event: KeyboardEvent): void {
    if (this.completion.handleKey(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    } else if (event.key === 'Escape' && this.running) {
      event.preventDefault();
      this.stop();
    } else if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && this.browsingHistory(event.key === 'ArrowUp')) {
      event.preventDefault();
    }
  }

  private caret(): number {
    return this.input.wrappedElement?.selectionStart ?? this.input.value.length;
  }

  private updateCompletion(): void {
    const trigger = findTrigger(this.input.value, this.caret());
    this.trigger = trigger;
    this.updateHint();
    if (!trigger) {
      this.completion.hide();
      return;
    }
    if (trigger.char === '/') {
      const commands = matchCommands(this.conversation.view.commands, trigger.query);
      this.completion.show(commands.map((command) => ({ kind: 'command', command })), (item) => this.accept(item));
      return;
    }
    void this.mentions.request(trigger.query).then((mentions) => {
      // A newer keystroke may have moved on.
      if (this.trigger !== trigger) return;
      this.completion.show(mentions.map((mention) => ({ kind: 'mention', mention })), (item) => this.accept(item));
    });
  }

  private accept(item: CompletionItem): void {
    const trigger = this.trigger;
    if (!trigger) return;
    const text = this.input.value;
    const end = trigger.start + 1 + trigger.query.length;
    const inserted = item.kind === 'command' ? `/${item.command.name} ` : `@${item.mention.label} `;
    if (item.kind === 'mention') this.attachments.addMention(item.mention);
    this.input.value = `${text.slice(0, trigger.start)}${inserted}${text.slice(end)}`;
    const caret = trigger.start + inserted.length;
    this.input.wrappedElement?.setSelectionRange(caret, caret);
    this.trigger = null;
    this.updateHint();
    this.input.focus();
  }

  /** A command that takes input says what to type after it. */
  private updateHint(): void {
    const match = /^\/(\S+)\s/.exec(this.input.value);
    const command = match ? this.conversation.view.commands.find((candidate) => candidate.name === match[1]) : undefined;
    this.hint.hidden = !command;
    this.hint.textContent = command ? `/${command.name}: ${command.description}${command.inputHint ? ` (input: ${command.inputHint})` : ''}` : '';
  }

  private async takeFiles(event: Event, files: File[]): Promise<void> {
    if (files.length === 0) return;
    event.preventDefault();
    await this.attachments.addFiles(files);
  }

  /** Up/down walk through sent prompts while the box is empty or showing one of them. */
  private browsingHistory(up: boolean): boolean {
    const { history } = this.local;
    if (history.length === 0) return false;
    const showingHistory = this.historyIndex !== null && this.input.value === history[this.historyIndex];
    if (!showingHistory && this.input.value !== '') return false;
    const current = showingHistory && this.historyIndex !== null ? this.historyIndex : history.length;
    const next = up ? Math.max(0, current - 1) : current + 1;
    if (next >= history.length) {
      this.historyIndex = null;
      this.input.value = '';
    } else {
      this.historyIndex = next;
      this.input.value = history[next] ?? '';
    }
    return true;
  }

  private send(): void {
    const text = this.input.value.trim();
    if (!text) return;
    const context = this.attachments.take();
    this.attachments.say(null);
    this.local.history = [...this.local.history.filter((item) => item !== text), text].slice(-100);
    this.local.draft = '';
    this.historyIndex = null;
    this.host.saveLocalState(this.local);
    this.input.value = '';
    this.hint.hidden = true;
    // The host sends it now or queues it behind the running turn.
    this.post(text, context);
  }

  private post(text: string, context: PromptContext): void {
    this.host.post({
      type: 'sendPrompt', text,
      ...(context.mentions.length > 0 ? { mentions: context.mentions } : {}),
      ...(context.images.length > 0 ? { images: context.images } : {}),
    });
  }

  private stop(): void {
    this.host.post({ type: 'cancelTurn' });
  }
}
