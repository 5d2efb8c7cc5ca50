import type { ConversationStore } from '../conversationStore';
import { el } from '../dom';
import { panelStrings } from '../panelStrings';
import type { HostChannel, LocalState } from '../vscodeApi';
import { Attachments, type PromptContext } from './attachments';
import { CompletionList, findTrigger, matchCommands, MentionSource, type CompletionItem, type Trigger } from './completion';
import type { MentionView, PromptQueueView } from '../../src/contract/conversationView';
import { QueuedMessagesView } from './queuedMessages';
import { READ_ONLY_REASON } from '../../src/contract/sessionTabsView';

type TextArea = HTMLElement & { value: string; readonly: boolean; label: string; wrappedElement?: HTMLTextAreaElement };

/** The box grows with its text up to this many lines, then scrolls: the thread above keeps most of a narrow side bar. */
const MAX_LINES = 10;
const PLACEHOLDER = panelStrings.composerPlaceholder;
const LABEL = panelStrings.composerLabel;

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
  private readOnly = false;
  /** Why nothing can be sent to this agent now (its program is missing), or null. */
  private unavailable: string | null = null;
  /** The commands the "/" completion last saw, as JSON. */
  private shownCommands = '[]';
  private readonly readOnlyReason = el('div', { class: 'read-only-reason', id: 'read-only-reason', role: 'note', hidden: '' }, READ_ONLY_REASON);
  private width = 0;
  private readonly resizeObserver = new ResizeObserver(() => this.refit());

  constructor(private readonly host: HostChannel, private readonly conversation: ConversationStore) {
    this.local = host.loadLocalState();
    this.attachments = new Attachments(conversation);
    this.mentions = new MentionSource(host.post);
    this.input = document.createElement('vscode-textarea') as TextArea;
    this.input.id = 'composer-input';
    this.input.setAttribute('rows', '1');
    this.input.setAttribute('placeholder', PLACEHOLDER);
    this.input.setAttribute('title', LABEL);
    this.input.setAttribute('aria-label', LABEL);
    // `label` (a property only) names the inner textarea, the one that takes focus; aria-label names only the outer element.
    this.input.label = LABEL;
    this.setText(this.local.draft);
    this.input.addEventListener('input', () => {
      this.local.draft = this.input.value;
      this.host.saveLocalState(this.local);
      this.fit();
      this.updateCompletion();
    });
    this.input.addEventListener('keydown', (event: KeyboardEvent) => this.onKey(event));
    this.input.addEventListener('blur', () => this.completion.hide());
    this.input.addEventListener('paste', (event: ClipboardEvent) => void this.takeFiles(event, [...(event.clipboardData?.files ?? [])]));
    this.sendButton = document.createElement('vscode-button');
    this.sendButton.id = 'send-button';
    this.sendButton.addEventListener('click', () => (this.running && !this.input.value.trim() ? this.stop() : this.send()));
    this.queue = new QueuedMessagesView(host.post, (prompt) => {
      this.setText(prompt.text);
      this.attachments.restore(prompt);
      this.input.focus();
    });
    this.element = el('footer', { class: 'composer' },
      this.queue.element, this.completion.element, this.attachments.element, this.readOnlyReason, this.input, this.hint, this.attachments.status,
      el('div', { class: 'composer-actions' }, this.toolbar, this.sendButton));
    this.element.addEventListener('dragover', (event) => event.preventDefault());
    this.element.addEventListener('drop', (event: DragEvent) => void this.takeFiles(event, [...(event.dataTransfer?.files ?? [])]));
    this.setRunning(false);
    this.resizeObserver.observe(this.input);
    conversation.subscribe(() => this.commandsArrived());
  }

  /**
   * An agent reports its commands once its session is up: a "/" typed before that completes when
   * they come, not at the next keystroke. The same commands again (every usage update brings them)
   * leave the list and its selection as they are.
   */
  private commandsArrived(): void {
    const commands = JSON.stringify([this.conversation.view.commandsFrom ?? null, this.conversation.view.commands]);
    if (commands === this.shownCommands) return;
    this.shownCommands = commands;
    if (this.trigger?.char === '/' && document.activeElement === this.input) this.updateCompletion();
  }

  /** Focus without scrolling anything: the thread stays where the user was reading. */
  focus(): void {
    this.input.focus({ preventScroll: true });
  }

  /** A tab nothing is sent from: the box can be read and focused, says why, and sends nothing. */
  setReadOnly(readOnly: boolean): void {
    if (readOnly === this.readOnly) return;
    this.readOnly = readOnly;
    this.readOnlyReason.hidden = !readOnly;
    this.input.readonly = readOnly;
    this.input.toggleAttribute('readonly', readOnly);
    const label = readOnly ? `Message to the agent, read-only. ${READ_ONLY_REASON}` : LABEL;
    this.input.setAttribute('aria-label', label);
    this.input.label = label;
    this.input.setAttribute('placeholder', readOnly ? READ_ONLY_REASON : PLACEHOLDER);
    this.setRunning(this.running);
  }

  /** An agent that cannot start: Send waits, saying why, and what is typed stays; null when it can start again. */
  setUnavailable(reason: string | null): void {
    this.unavailable = reason;
    this.setRunning(this.running);
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.sendButton.textContent = running ? panelStrings.stop : panelStrings.send;
    this.sendButton.setAttribute('icon', running ? 'debug-stop' : 'send');
    const blocked = this.readOnly || (!running && this.unavailable !== null);
    this.sendButton.toggleAttribute('disabled', blocked);
    this.sendButton.setAttribute('aria-disabled', String(blocked));
    this.sendButton.setAttribute('title', this.readOnly ? READ_ONLY_REASON : running ? panelStrings.stopTitle : this.unavailable ?? panelStrings.sendTitle);
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
    this.setText(`${text.slice(0, trigger.start)}${inserted}${text.slice(end)}`);
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
    const text = command ? `/${command.name}: ${command.description}${command.inputHint ? ` (input: ${command.inputHint})` : ''}` : this.commandsNote();
    this.hint.hidden = text === '';
    this.hint.textContent = text;
  }

  /** While "/" completes and the agent has not started: where the commands shown come from, or why there are none. */
  private commandsNote(): string {
    if (this.trigger?.char !== '/') return '';
    const from = this.conversation.view.commandsFrom;
    if (from === 'lastRun') return panelStrings.commandsFromLastRun;
    return from === 'notStarted' ? panelStrings.commandsNotStarted : '';
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
      this.setText('');
    } else {
      this.historyIndex = next;
      this.setText(history[next] ?? '');
    }
    return true;
  }

  private send(): void {
    const text = this.input.value.trim();
    if (!text || this.readOnly || this.unavailable !== null) return;
    const context = this.attachments.take();
    this.attachments.say(null);
    this.local.history = [...this.local.history.filter((item) => item !== text), text].slice(-100);
    this.local.draft = '';
    this.historyIndex = null;
    this.host.saveLocalState(this.local);
    this.setText('');
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

  /** Text put in the box by code, not typed: the box takes its height once the element has drawn it. */
  private setText(text: string): void {
    this.input.value = text;
    requestAnimationFrame(() => this.fit());
  }

  /** A new width wraps the text differently. */
  private refit(): void {
    const width = this.input.clientWidth;
    if (width === this.width) return;
    this.width = width;
    this.fit();
  }

  /** As tall as its text, from one line up to MAX_LINES (CSSOM: the CSP allows no inline styles). */
  private fit(): void {
    const area = this.input.wrappedElement;
    if (!area) return;
    const style = getComputedStyle(area);
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    // At `auto` the box is its one row: a line's height as drawn (the line-height is usually "normal").
    area.style.height = 'auto';
    const line = area.clientHeight - padding;
    const wanted = area.scrollHeight + borders;
    const max = line * MAX_LINES + padding + borders;
    area.style.height = `${Math.ceil(Math.min(wanted, max))}px`;
    area.style.overflowY = wanted > max ? 'auto' : 'hidden';
  }

  private stop(): void {
    this.host.post({ type: 'cancelTurn' });
  }
}
