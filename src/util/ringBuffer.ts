/** Keeps the newest items within a count and a total-size budget. */
export class BoundedLog<T> {
  private items: T[] = [];
  private head = 0;
  private totalSize = 0;
  private droppedCount = 0;

  constructor(
    private readonly maxItems: number,
    private readonly maxSize: number,
    private readonly sizeOf: (item: T) => number,
  ) {}

  push(item: T): void {
    this.items.push(item);
    this.totalSize += this.sizeOf(item);
    while (this.length > 0 && (this.length > this.maxItems || this.totalSize > this.maxSize)) {
      const oldest = this.items[this.head] as T;
      this.totalSize -= this.sizeOf(oldest);
      this.head++;
      this.droppedCount++;
    }
    // Compact occasionally so dropped items can be garbage collected.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  get length(): number {
    return this.items.length - this.head;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.totalSize;
  }

  toArray(): T[] {
    return this.items.slice(this.head);
  }
}
