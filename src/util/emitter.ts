import { toDisposable, type Disposable } from './disposable';

export type Listener<T> = (event: T) => void;

/** A minimal typed event emitter with VS Code's `event(listener) => Disposable` shape. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<Listener<T>>();

  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
