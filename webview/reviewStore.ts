import type { ReviewFileView, ReviewView } from '../src/contract/reviewView';

/** The panel's copy of the pending changes; cards and the changes bar read it. */
export class ReviewStore {
  private current: ReviewView = { files: [], canRedo: false };
  private readonly listeners = new Set<() => void>();

  get view(): ReviewView {
    return this.current;
  }

  file(path: string): ReviewFileView | undefined {
    return this.current.files.find((file) => file.path === path);
  }

  set(view: ReviewView): void {
    this.current = view;
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): void {
    this.listeners.add(listener);
  }
}
