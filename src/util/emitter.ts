import { toDisposable, type Disposable } from './disposable';

export type Listener<T> = (event: T) => void;

/** A minimal typed event emitter with VS Code's `event(listener) => Disposable` shape. */
export class Emitter<T> implements Disposable {
  /**
   * Replaced, never changed in place: a fire goes to the listeners there were when it began,
   * without copying them on every event (several per streamed token).
   */
  private listeners: readonly Listener<T>[] = [];

  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners = [...this.listeners, listener];
    let subscribed = true;
    return toDisposable(() => {
      if (!subscribed) return;
      subscribed = false;
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners = [...this.listeners.slice(0, index), ...this.listeners.slice(index + 1)];
    });
  };

  fire(event: T): void {
    for (const listener of this.listeners) listener(event);
  }

  dispose(): void {
    this.listeners = [];
  }
}
