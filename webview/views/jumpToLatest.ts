import { el, icon } from '../dom';

/**
 * "Jump to latest": shown while the reader is scrolled away from the end of the thread and
 * something new came below (an answer, a card, a question waiting). It floats over the thread's
 * bottom edge in a zero-height anchor, so showing it moves nothing under the pointer.
 */
export class JumpToLatest {
  readonly element: HTMLElement;
  private readonly button: HTMLButtonElement;

  constructor(jump: () => void, private readonly thread: HTMLElement) {
    this.button = el('button', { class: 'jump-latest', type: 'button', title: 'Jump to latest (End)', 'aria-label': 'Jump to the latest message' }, icon('arrow-down'), ' Latest');
    this.button.hidden = true;
    this.button.addEventListener('click', () => jump());
    this.element = el('div', { class: 'jump-latest-anchor' }, this.button);
  }

  get shown(): boolean {
    return !this.button.hidden;
  }

  show(): void {
    this.button.hidden = false;
  }

  hide(): void {
    // Focus on the button would be lost with it: it goes to the thread, where the reader now is.
    if (document.activeElement === this.button) this.thread.focus();
    this.button.hidden = true;
  }
}
