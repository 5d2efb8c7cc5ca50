import { emptyFeedback, emptyReview, type ReviewCommentView, type ReviewFeedbackView, type ReviewFileView, type ReviewView } from '../src/contract/reviewView';

/** The review feedback of one view, looked up by hunk. */
export class FeedbackIndex {
  private readonly reviewed: ReadonlySet<string>;

  constructor(readonly feedback: ReviewFeedbackView = emptyFeedback) {
    this.reviewed = new Set(feedback.reviewedHunkIds);
  }

  isReviewed(hunkId: string): boolean {
    return this.reviewed.has(hunkId);
  }

  commentsOn(hunkId: string): ReviewCommentView[] {
    return this.feedback.comments.filter((comment) => comment.hunkId === hunkId);
  }
}

/**
 * What a surface's redraws must not lose: the comment boxes being written (each box lives here
 * and moves into every new drawing, text and caret kept) and which control had the keyboard
 * focus. Keys name a control in one surface (a card, the changes bar).
 */
export class ReviewUi {
  private readonly drafts = new Map<string, HTMLTextAreaElement>();
  private readonly focusables = new Map<string, HTMLElement>();

  /** The open comment box at `key`, if any. */
  draft(key: string): HTMLTextAreaElement | undefined {
    return this.drafts.get(key);
  }

  openDraft(key: string, box: HTMLTextAreaElement): void {
    this.drafts.set(key, box);
  }

  closeDraft(key: string): void {
    this.drafts.delete(key);
  }

  /**
   * `element` is drawn in place of the control last drawn under `key` (or is that control,
   * moved). Views draw the new one before they swap it in, so if the old one has the focus now,
   * the new one takes it once it is in place, unless the focus went somewhere else meanwhile.
   * A task later, not a microtask: a new vscode-button is focusable only once it has rendered.
   */
  keepFocus<T extends HTMLElement>(key: string, element: T): T {
    const previous = this.focusables.get(key);
    this.focusables.set(key, element);
    if (previous && previous === document.activeElement) {
      setTimeout(() => {
        const now = document.activeElement;
        if (element.isConnected && (now === null || now === document.body || now === element)) element.focus();
      }, 0);
    }
    return element;
  }

  /** Focus goes to the control drawn last under `key` (e.g. back to "Comment" after its box closed). */
  focus(key: string): void {
    this.focusables.get(key)?.focus();
  }

  /** Forgets controls that are no longer drawn. */
  prune(): void {
    for (const [key, element] of [...this.focusables]) if (!element.isConnected) this.focusables.delete(key);
  }
}

/** The panel's copy of the pending changes and their feedback; the cards read it. */
export class ReviewStore {
  private current: ReviewView = emptyReview;
  private index = new FeedbackIndex();
  private readonly listeners = new Set<() => void>();
  /** The cards' comment boxes and focus. */
  readonly ui = new ReviewUi();

  get view(): ReviewView {
    return this.current;
  }

  get feedback(): FeedbackIndex {
    return this.index;
  }

  file(path: string): ReviewFileView | undefined {
    return this.current.files.find((file) => file.path === path);
  }

  set(view: ReviewView): void {
    this.current = view;
    this.index = new FeedbackIndex(view.feedback);
    for (const listener of this.listeners) listener();
    this.ui.prune();
  }

  subscribe(listener: () => void): void {
    this.listeners.add(listener);
  }
}
