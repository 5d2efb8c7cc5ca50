/** How long after an answer the card may take to redraw without its buttons; after that the focus is left alone. */
const REDRAW_WAIT_MS = 10_000;
const OPTIONS = '.permission-options';

/**
 * Where the keyboard goes once a permission is answered: the answered card redraws without its
 * buttons, which would drop the focus on the page's body. It moves to the next open question's
 * first button, or else onto the answered card itself, so Tab goes on from where the keyboard
 * was (a turn's next question comes below it); the message box when the card is gone. Nothing
 * scrolls the thread.
 */
export class PermissionFocus {
  private observer: MutationObserver | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private answeredCard: string | null = null;

  constructor(private readonly thread: HTMLElement, private readonly composer: { focus(): void }) {
    // Capture: the answer's own click handler posts it; this only notes that one was given.
    thread.addEventListener('click', (event) => {
      const target = event.target as Element | null;
      if (!target?.closest(OPTIONS)) return;
      this.answeredCard = target.closest('.tool-card')?.getAttribute('data-tool-call-id') ?? null;
      this.awaitRedraw();
    }, true);
  }

  private awaitRedraw(): void {
    this.stop();
    this.observer = new MutationObserver(() => this.placeFocus());
    this.observer.observe(this.thread, { childList: true, subtree: true });
    this.timer = setTimeout(() => this.stop(), REDRAW_WAIT_MS);
  }

  private placeFocus(): void {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    this.stop();
    const next = this.thread.querySelector<HTMLElement>(`${OPTIONS} vscode-button, ${OPTIONS} button`);
    if (next) {
      next.focus({ preventScroll: true });
      return;
    }
    const card = this.answeredCard === null ? null : this.thread.querySelector<HTMLElement>(`.tool-card[data-tool-call-id="${CSS.escape(this.answeredCard)}"]`);
    if (!card) {
      this.composer.focus();
      return;
    }
    if (!card.hasAttribute('tabindex')) card.setAttribute('tabindex', '-1');
    card.focus({ preventScroll: true });
  }

  private stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    clearTimeout(this.timer);
  }
}
