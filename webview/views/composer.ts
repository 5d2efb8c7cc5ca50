import { el } from '../dom';
import { loadLocalState, postToHost, saveLocalState } from '../vscodeApi';

/** The message box: Enter sends, Shift+Enter adds a line, Escape or Stop cancels the turn. */
export class ComposerView {
  readonly element: HTMLElement;
  private readonly input: HTMLElement & { value: string };
  private readonly sendButton: HTMLElement;
  private running = false;
  private readonly local = loadLocalState();
  private historyIndex: number | null = null;

  constructor() {
    this.input = document.createElement('vscode-textarea') as HTMLElement & { value: string };
    this.input.id = 'composer-input';
    this.input.setAttribute('rows', '3');
    this.input.setAttribute('resize', 'vertical');
    this.input.setAttribute('placeholder', 'Message the agent (Enter to send, Shift+Enter for a new line)');
    this.input.setAttribute('aria-label', 'Message to the agent');
    this.input.value = this.local.draft;
    this.input.addEventListener('input', () => {
      this.local.draft = this.input.value;
      saveLocalState(this.local);
    });
    this.input.addEventListener('keydown', (event: KeyboardEvent) => this.onKey(event));
    this.sendButton = document.createElement('vscode-button');
    this.sendButton.id = 'send-button';
    this.sendButton.addEventListener('click', () => (this.running ? this.stop() : this.send()));
    this.element = el('footer', { class: 'composer' }, this.input, el('div', { class: 'composer-actions' }, this.sendButton));
    this.setRunning(false);
  }

  focus(): void {
    this.input.focus();
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.sendButton.textContent = running ? 'Stop' : 'Send';
    this.sendButton.setAttribute('icon', running ? 'debug-stop' : 'send');
    this.sendButton.setAttribute('title', running ? 'Stop the agent (Escape)' : 'Send (Enter)');
    this.sendButton.toggleAttribute('secondary', running);
    document.body.dataset.turn = running ? 'running' : 'idle';
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!this.running) this.send();
    } else if (event.key === 'Escape' && this.running) {
      event.preventDefault();
      this.stop();
    } else if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && this.browsingHistory(event.key === 'ArrowUp')) {
      event.preventDefault();
    }
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
    postToHost({ type: 'sendPrompt', text });
    this.local.history = [...this.local.history.filter((item) => item !== text), text].slice(-100);
    this.local.draft = '';
    this.historyIndex = null;
    saveLocalState(this.local);
    this.input.value = '';
  }

  private stop(): void {
    postToHost({ type: 'cancelTurn' });
  }
}
