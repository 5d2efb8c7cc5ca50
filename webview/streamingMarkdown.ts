import { decorateCodeBlocks } from './codeCopy';
import { renderMarkdown } from './markdown';

/**
 * Markdown committed per frame. A backlog (a burst after a stall, a reloaded long answer) is
 * rendered a slice per frame instead of in one task long enough to freeze the panel.
 */
const COMMIT_PER_FRAME = 16 * 1024;

/**
 * Renders a growing markdown text without re-rendering what is already settled. Text up to
 * the last blank line outside a code fence is committed as finished blocks; only the tail is
 * rendered again as chunks arrive, so the cost per chunk does not grow with the message, and
 * no frame renders more than about COMMIT_PER_FRAME characters.
 */
export class StreamingMarkdown {
  private text = '';
  private committed = 0;
  private readonly tail: HTMLElement;
  private dirty = false;

  constructor(private readonly container: HTMLElement) {
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    container.append(this.tail);
  }

  append(chunk: string): void {
    this.text += chunk;
    this.dirty = true;
  }

  reset(text: string): void {
    this.container.replaceChildren(this.tail);
    this.text = text;
    this.committed = 0;
    this.dirty = true;
  }

  get fullText(): string {
    return this.text;
  }

  /** Called once per animation frame; true when text is left for the next frame. */
  render(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    const boundary = settledBoundary(this.text, this.committed, this.committed + COMMIT_PER_FRAME);
    if (boundary > this.committed) {
      const block = document.createElement('div');
      block.className = 'md-block';
      block.innerHTML = renderMarkdown(this.text.slice(this.committed, boundary));
      decorateCodeBlocks(block);
      this.container.insertBefore(block, this.tail);
      this.committed = boundary;
    }
    const backlog = settledBoundary(this.text, this.committed, this.committed) > this.committed;
    if (backlog) {
      // The tail would repeat the backlog's text; it is drawn once the backlog is committed.
      this.tail.replaceChildren();
      this.dirty = true;
      return true;
    }
    this.tail.innerHTML = renderMarkdown(this.text.slice(this.committed));
    decorateCodeBlocks(this.tail);
    return false;
  }
}

const fenceLine = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The end of the last paragraph break after `from` that is outside any code fence, or `from`
 * when there is none. Only the text after `from` is scanned (fences never span a commit). With
 * `limit`, scanning stops at the first break past it: the last break before `limit`, or the
 * first one after it when there is none before.
 */
export function settledBoundary(text: string, from: number, limit = Infinity): number {
  let inFence: string | null = null;
  let boundary = from;
  let lineStart = from;
  let previousBlank = false;
  while (lineStart < text.length) {
    if (lineStart > limit && boundary > from) break;
    const newline = text.indexOf('\n', lineStart);
    if (newline < 0) break;
    const line = text.slice(lineStart, newline);
    const fence = fenceLine.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      if (inFence === null) inFence = marker[0] as string;
      else if (marker[0] === inFence) {
        inFence = null;
      }
    }
    const blank = line.trim() === '';
    // A blank line after content, outside a fence, ends a block, unless a list or quote may continue.
    if (blank && !previousBlank && inFence === null && lineStart > from) boundary = newline + 1;
    previousBlank = blank;
    lineStart = newline + 1;
  }
  return boundary;
}
