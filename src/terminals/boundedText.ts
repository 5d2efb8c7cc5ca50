/** Where to cut `text` so that about `keep` characters remain and the kept part starts well. */
export function cutIndex(text: string, keep: number, lineSearch: number): number {
  let cut = Math.max(0, text.length - keep);
  if (cut === 0) return 0;
  // Start on a line, so a view does not begin inside an escape sequence that would show as garbage.
  const lineStart = text.indexOf('\n', cut);
  if (lineStart !== -1 && lineStart - cut < lineSearch) cut = lineStart + 1;
  else if (/[\uDC00-\uDFFF]/.test(text.charAt(cut))) cut += 1;
  return cut;
}

/**
 * Text chunks within a character budget, newest kept: a terminal's output for showing it again
 * (a reloaded panel, a mirror opened later), or output pending between two flushes. Whole chunks are dropped from the front
 * as they fall out of the budget (cheap per append); the exact cut happens when text is read.
 */
export class BoundedText {
  private parts: string[] = [];
  private length = 0;
  private droppedChars = 0;

  constructor(private readonly limit: number, private readonly lineSearch = 4096) {}

  get dropped(): number {
    return this.droppedChars;
  }

  get isEmpty(): boolean {
    return this.length === 0;
  }

  append(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.length += text.length;
    while (this.parts.length > 1 && this.length - (this.parts[0] as string).length >= this.limit) {
      const first = this.parts.shift() as string;
      this.length -= first.length;
      this.droppedChars += first.length;
    }
  }

  /** Counts output that went by without being appended, as if it had been dropped. */
  skip(count: number): void {
    this.droppedChars += count;
  }

  text(): string {
    const joined = this.parts.join('');
    const cut = cutIndex(joined, this.limit, this.lineSearch);
    this.droppedChars += cut;
    this.parts = cut > 0 ? [joined.slice(cut)] : [joined];
    this.length = this.parts[0]?.length ?? 0;
    return this.parts[0] ?? '';
  }

  clear(): void {
    this.parts = [];
    this.length = 0;
  }
}
