import type { TerminalOutputView } from './terminalStates';
import { BoundedText } from './boundedText';

/**
 * Collects terminal output between two flushes, at most `maxChars` per terminal: a command
 * that prints faster than a view can draw loses the middle (counted as skipped), not the
 * newest output, and memory stays bounded however fast it prints.
 */
export class OutputCoalescer {
  private pending = new Map<string, BoundedText>();

  constructor(private readonly maxChars: number) {}

  get isEmpty(): boolean {
    return this.pending.size === 0;
  }

  /** `skipped`: output that went by before `data` without reaching the display (counted, never shown). */
  push(terminalId: string, data: string, skipped = 0): void {
    if (!data && skipped === 0) return;
    let text = this.pending.get(terminalId);
    if (!text) {
      text = new BoundedText(this.maxChars, 1024);
      this.pending.set(terminalId, text);
    }
    text.skip(skipped);
    text.append(data);
  }

  take(): TerminalOutputView[] {
    const output: TerminalOutputView[] = [];
    for (const [terminalId, text] of this.pending) {
      const data = text.text();
      output.push({ terminalId, data, skipped: text.dropped });
    }
    this.pending = new Map();
    return output;
  }

  clear(): void {
    this.pending = new Map();
  }
}
