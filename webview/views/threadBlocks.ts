import type { ThreadEntry } from '../../src/contract/viewModel';
import { el } from '../dom';
import { keepNewestDrawn } from '../settling';
import { joinsGroup } from './toolGroups';

/**
 * Top-level rows per block. Every frame Chromium checks each `content-visibility: auto` element
 * against the viewport, and an append lays out the thread's column over all its children: with the
 * rows in blocks, a long thread costs per frame what its blocks do (2,000 rows: 40), not its rows.
 */
const ROWS_PER_BLOCK = 50;

/**
 * The thread's rows in order, in blocks of consecutive rows. Blocks older than the last full one
 * are `settled`: drawn only when scrolled to (media/panel.css). The end stays drawn (at least one
 * block's worth of rows), so scrolling to the bottom lands on real heights, not on the estimate
 * used for a block never drawn, and a block settles only once it was drawn and its height is known.
 */
export class ThreadBlocks {
  /** The newest blocks, still drawn: the last one takes new rows. */
  private drawn: HTMLElement[] = [];

  /** `added`: told of each new block (the view watches their sizes). */
  constructor(private readonly container: HTMLElement, private readonly added: (block: HTMLElement) => void = () => undefined) {}

  /** Where a new row goes: the last block, or a new one once it is full (a read joining the group the block ends with stays in it). */
  blockFor(entry: ThreadEntry): HTMLElement {
    const last = this.drawn[this.drawn.length - 1];
    if (last && (last.childElementCount < ROWS_PER_BLOCK || joinsGroup(last, entry))) return last;
    const block = el('div', { class: 'thread-block' });
    this.container.append(block);
    this.added(block);
    keepNewestDrawn(this.drawn, block);
    return block;
  }

  /** The container was emptied. */
  clear(): void {
    this.drawn = [];
  }
}
