import type * as vscode from 'vscode';

/**
 * A list kept whole in a Memento under one key, as the plain JSON array it is. What is read back
 * passes `isItem` first: an entry of another version's shape, or edited by hand, is dropped, not trusted.
 */
export class MementoList<T> {
  constructor(
    private readonly memento: vscode.Memento,
    private readonly key: string,
    private readonly isItem: (item: unknown) => item is T,
  ) {}

  load(): T[] {
    const raw = this.memento.get<unknown>(this.key);
    return Array.isArray(raw) ? raw.filter((item) => this.isItem(item)) : [];
  }

  save(items: T[]): void {
    void this.memento.update(this.key, items);
  }
}
