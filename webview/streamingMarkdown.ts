import { decorateCodeBlocks } from './codeCopy';
import { renderMarkdown } from './markdown';
import { keepNewestDrawn } from './settling';

/**
 * Markdown committed per slice, and the time a frame may spend committing slices. A backlog (a
 * burst after a stall, a reloaded long answer) is rendered over several frames instead of in one
 * task long enough to freeze the panel (and the editor around it, which shares its thread).
 */
const COMMIT_PER_SLICE = 4 * 1024;
const COMMIT_BUDGET_MS = 10;

/**
 * Committed slices go into one block until it holds about this much text: the browser checks
 * every settled block's visibility each frame (content-visibility: auto), so a long answer is a
 * few dozen blocks, not one per frame.
 */
const BLOCK_CHARS = 8 * 1024;

/**
 * Renders a growing markdown text without re-rendering what is already settled. Text up to
 * the last blank line outside a code fence is committed as finished blocks; only the tail is
 * rendered again as chunks arrive, so the cost per chunk does not grow with the message, and
 * no frame spends much more than COMMIT_BUDGET_MS committing. Only the text not yet committed is
 * kept: slicing a long appended string would copy all of it every frame.
 */
export class StreamingMarkdown {
  private pending = '';
  private readonly tail: HTMLElement;
  private shownTail = '';
  private block: HTMLElement | null = null;
  private blockChars = 0;
  /** The newest blocks, not settled yet, oldest first. */
  private readonly unsettled: HTMLElement[] = [];
  private dirty = false;

  constructor(private readonly container: HTMLElement) {
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    container.append(this.tail);
  }

  append(chunk: string): void {
    if (chunk === '') return;
    this.pending += chunk;
    this.dirty = true;
  }

  /** Called once per animation frame; true when text is left for the next frame. */
  render(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    const started = performance.now();
    let boundary = settledBoundary(this.pending, 0, COMMIT_PER_SLICE);
    while (boundary > 0) {
      this.commit(this.pending.slice(0, boundary));
      this.pending = this.pending.slice(boundary);
      boundary = settledBoundary(this.pending, 0, COMMIT_PER_SLICE);
      if (boundary > 0 && performance.now() - started > COMMIT_BUDGET_MS) {
        // The tail would repeat the backlog's text; it is drawn once the backlog is committed.
        this.showTail('');
        this.dirty = true;
        return true;
      }
    }
    this.showTail(this.pending);
    return false;
  }

  private commit(text: string): void {
    if (!this.block || this.blockChars >= BLOCK_CHARS) {
      this.block = document.createElement('div');
      this.block.className = 'md-block';
      this.blockChars = 0;
      this.container.insertBefore(this.block, this.tail);
      keepNewestDrawn(this.unsettled, this.block);
    }
    this.block.append(renderMarkdown(text));
    this.blockChars += text.length;
    decorateCodeBlocks(this.block);
  }

  /** The tail's text drawn, unless it is what the tail already shows. */
  private showTail(text: string): void {
    if (text === this.shownTail) return;
    this.shownTail = text;
    if (text === '') return this.tail.replaceChildren();
    this.tail.replaceChildren(renderMarkdown(text));
    decorateCodeBlocks(this.tail);
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
