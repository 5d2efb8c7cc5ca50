/** Anything that holds a resource and releases it exactly once. */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(release: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      release();
    },
  };
}

/** Owns child disposables and releases them in reverse order of registration. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
      return item;
    }
    this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'Some resources failed to dispose');
  }
}

/** Base class for owners of disposables, in the style of VS Code's own `Disposable`. */
export abstract class DisposableBase implements Disposable {
  protected readonly store = new DisposableStore();

  protected register<T extends Disposable>(item: T): T {
    return this.store.add(item);
  }

  dispose(): void {
    this.store.dispose();
  }
}
