import type { CheckpointUpdate, MessageCheckpointView } from '../../src/contract/checkpointView';
import { applyThreadDeltas } from '../../src/contract/threadDeltas';
import type { ThreadDelta, ThreadEntry } from '../../src/contract/viewModel';
import { assertNever } from '../../src/util/assertNever';
import { el, icon } from '../dom';
import { panelStrings } from '../panelStrings';
import { RenderCadence } from '../renderCadence';
import { JumpToLatest } from './jumpToLatest';
import { markdownRow, plainRow, renderNotice, renderPlan, renderTurnEnded, type Row } from './threadRows';
import { CheckpointPreviewPanel, checkpointActions, sameCheckpointActions, type CheckpointPost } from './checkpointPreview';
import { renderToolCard, type CardContext } from './toolCard';
import { renderElicitation } from './elicitationForm';
import { placeRow, rowUpdated } from './toolGroups';
import { ThreadBlocks } from './threadBlocks';
import { UserMessages } from './userMessage';
import { carryNest, nestUnderParent, refreshNestOf, renderCompaction, steeredNote } from './agentExtrasRows';

function endsTurn(delta: ThreadDelta): boolean {
  return delta.type === 'entryAdded' && delta.entry.kind === 'turnEnded';
}

/** How close to the end counts as at the end (a last line's worth). */
const NEAR_END_PX = 40;

/**
 * The conversation. The entries are the contract's list with the host's deltas applied; the
 * rows follow the same deltas so only what changed is drawn again. Streamed text is appended and
 * rendered once per animation frame, and the view follows new content unless the user scrolled up.
 */
export class ThreadView {
  private entries: ThreadEntry[] = [];
  private readonly rows = new Map<string, Row>();
  private dirty = new Set<Row>();
  private frameRequested = false;
  private readonly cadence = new RenderCadence();
  /** Rows came, went or were drawn again since the last frame: the next frame follows them, whatever the cadence says. */
  private rowsChanged = false;
  private followBottom = true;
  /** Something arrived while the reader was away from the end: "Latest" shows once the end is out of view. */
  private newBelow = false;
  /**
   * The reader went up themselves (wheel, keys, the scroll bar). Following can also stop for a
   * moment while the browser keeps the view steady as blocks above settle; that is no reason to
   * offer a way back.
   */
  private readerLeft = false;
  /** Where the view was scrolled at the last scroll event: reaching the end resumes following only on the way down. */
  private lastScrollTop = 0;
  /** Where the view's own scroll to the end put it: the scroll event that reports it, a frame later, says nothing about the reader. */
  private ownScrollTop: number | null = null;
  private checkpoints = new Map<string, MessageCheckpointView>();
  private redo: string | null = null;
  private readonly preview: CheckpointPreviewPanel | null;
  private emptyState: HTMLElement | null = null;
  /** Thoughts drawn open; the next entry of another kind folds them (searching the whole thread for them per entry made long threads slow). */
  private readonly openThoughts = new Set<HTMLDetailsElement>();
  private readonly blocks: ThreadBlocks;
  private readonly sizes: ResizeObserver;
  /** Shown while the reader is away from the end and something new came; the host places it under the thread. */
  readonly jumpToLatest: JumpToLatest;
  private readonly userMessages: UserMessages;

  /** `checkpoints`: where "Restore to here" goes; without it user messages offer none. */
  constructor(private readonly container: HTMLElement, private readonly cards: CardContext, private readonly checkpointPost: CheckpointPost | null = null) {
    // Following the end, the view stays at the end whenever the thread or its view changes height,
    // also after the frame that scrolled there: a block can be sized a frame later, and the
    // composer grows when a turn ends (its usage shows), taking the last line out of view.
    this.jumpToLatest = new JumpToLatest(() => this.followEnd(), container);
    this.userMessages = new UserMessages(cards.post);
    this.sizes = new ResizeObserver(() => this.keepAtEnd());
    this.sizes.observe(container);
    this.blocks = new ThreadBlocks(container, (block) => this.sizes.observe(block));
    this.preview = checkpointPost ? new CheckpointPreviewPanel(container, checkpointPost) : null;
    container.addEventListener('scroll', () => {
      // While new content waits for the next frame's scroll to the end, a scroll event says nothing
      // about the reader (it can be the browser keeping the view steady as rows above change height):
      // reaching the end on the way down resumes following, moving away stops it once the thread has
      // caught up. Only on the way down: a smooth scroll up starts with a step of a few pixels, still
      // near the end, and must not undo the wheel that asked to leave it. The event of the view's own
      // scroll to the end comes a frame later, possibly after the wheel: it is not the reader's.
      const top = container.scrollTop;
      const down = top > this.lastScrollTop;
      this.lastScrollTop = top;
      if (top === this.ownScrollTop) return;
      this.ownScrollTop = null;
      if (this.distanceFromEnd() < NEAR_END_PX) {
        if (down) this.followBottom = true;
        if (this.followBottom) this.hideJump();
      } else if (!this.frameRequested) this.followBottom = false;
    });
    // What the reader does to go up stops the following at once, even while content keeps coming.
    container.addEventListener('wheel', (event) => {
      if (event.deltaY < 0) this.leaveEnd();
    }, { passive: true });
    container.addEventListener('keydown', (event) => {
      if (['PageUp', 'ArrowUp', 'Home'].includes(event.key)) this.leaveEnd();
      if (event.key === 'End' && this.jumpToLatest.shown) this.followEnd();
    });
    container.addEventListener('pointerdown', (event) => {
      if (event.target === container) this.leaveEnd();
    });
    container.addEventListener('click', (event) => {
      const anchor = (event.target as HTMLElement).closest('a');
      if (!anchor || anchor.classList.contains('location-link')) return;
      event.preventDefault();
      const href = anchor.getAttribute('href');
      if (href && href !== '#') cards.post({ type: 'openLink', href });
    });
  }

  /** Pending changes moved: edit cards show the current hunks. */
  refreshDiffCards(): void {
    for (const entry of this.entries) {
      if (entry.kind === 'toolCall' && entry.tool.content.some((content) => content.type === 'diff')) this.update(entry);
    }
  }

  /** These tool calls' cards are drawn again (a terminal pane came for them). */
  refreshToolCalls(toolCallIds: readonly string[]): void {
    if (toolCallIds.length === 0) return;
    const wanted = new Set(toolCallIds);
    for (const entry of this.entries) {
      if (entry.kind === 'toolCall' && wanted.has(entry.tool.toolCallId)) this.update(entry);
    }
  }

  /**
   * Which user messages of this conversation have a checkpoint (their rows offer "Restore to
   * here"), or the preview of a restore under its message (null closes it). Every prompt brings
   * the list of all of them; only the messages whose actions look different are drawn again
   * (drawing every message's buttons again held a 300-prompt conversation's panel 41-64 ms).
   */
  checkpointUpdate(update: CheckpointUpdate): void {
    if (update.kind === 'preview') return this.preview?.show(update.preview);
    const before = { checkpoints: this.checkpoints, redo: this.redo };
    this.checkpoints = new Map(update.checkpoints.messages.map((message) => [message.entryId, message]));
    this.redo = update.checkpoints.redo;
    for (const entry of this.entries) {
      if (entry.kind !== 'user') continue;
      const was = before.checkpoints.get(entry.id);
      const now = this.checkpoints.get(entry.id);
      if (!sameCheckpointActions(was, before.redo, now, this.redo)) this.update(entry);
    }
  }

  /** The view goes to the end and follows it again (the reader asked, or sent a message). */
  followEnd(): void {
    this.followBottom = true;
    this.hideJump();
    this.keepAtEnd();
    this.rowsChanged = true;
    this.scheduleFrame();
  }

  reset(entries: ThreadEntry[]): void {
    this.entries = entries;
    this.clearRows();
    for (const entry of entries) this.add(entry);
    this.renderEmptyState();
    this.rowsChanged = true;
    this.scheduleFrame();
  }

  apply(deltas: ThreadDelta[]): void {
    this.entries = applyThreadDeltas(this.entries, deltas);
    for (const delta of deltas) this.draw(delta);
    if (deltas.some((delta) => delta.type !== 'textAppended')) this.rowsChanged = true;
    // The user's own message (sent, or its turn come from the queue) brings the view to it and what follows.
    if (deltas.some((delta) => delta.type === 'entryAdded' && delta.entry.kind === 'user')) this.followEnd();
    else if (!this.followBottom && deltas.length > 0) this.newBelow = true;
    // A turn's end is attached at once; the text before it is drawn with it, not a frame after
    // (which showed the ended turn, its queue going out and its meter, above words not yet there).
    if (deltas.some(endsTurn)) this.drawText();
    this.scheduleFrame();
  }

  private draw(delta: ThreadDelta): void {
    switch (delta.type) {
      case 'entryAdded':
        return this.add(delta.entry);
      case 'entryUpdated':
        return this.update(delta.entry);
      case 'textAppended':
        return this.appendText(delta.entryId, delta.text);
      case 'threadCleared':
        this.clearRows();
        return this.renderEmptyState();
      default:
        return assertNever(delta, 'thread delta');
    }
  }

  private clearRows(): void {
    this.rows.clear();
    this.userMessages.clear();
    this.dirty.clear();
    this.openThoughts.clear();
    this.blocks.clear();
    this.sizes.disconnect();
    this.sizes.observe(this.container);
    this.emptyState = null;
    this.container.replaceChildren();
    this.followBottom = true;
    this.hideJump();
  }

  private add(entry: ThreadEntry): void {
    this.emptyState?.remove();
    this.emptyState = null;
    const row = this.createRow(entry);
    this.rows.set(entry.id, row);
    if (!nestUnderParent(this.container, row.element, entry, this.entries)) placeRow(this.blocks.blockFor(entry), row.element, entry);
    // A new non-thought entry means the agent is done thinking: fold earlier thoughts.
    if (entry.kind === 'thought') this.openThoughts.add(row.element as HTMLDetailsElement);
    else this.foldThoughts();
    if (row.markdown) this.dirty.add(row);
  }

  private update(entry: ThreadEntry): void {
    const row = this.rows.get(entry.id);
    if (!row) return this.add(entry);
    const next = this.createRow(entry);
    carryNest(row.element, next.element);
    row.element.replaceWith(next.element);
    if (this.openThoughts.delete(row.element as HTMLDetailsElement)) this.openThoughts.add(next.element as HTMLDetailsElement);
    rowUpdated(next.element, entry);
    refreshNestOf(next.element, this.entries);
    this.rows.set(entry.id, next);
    if (next.markdown) this.dirty.add(next);
  }

  private foldThoughts(): void {
    for (const details of this.openThoughts) details.open = false;
    this.openThoughts.clear();
  }

  private appendText(entryId: string, text: string): void {
    const row = this.rows.get(entryId);
    if (!row) return;
    if (row.markdown) {
      row.markdown.append(text);
      this.dirty.add(row);
    } else {
      // A user message (replayed in chunks) is drawn again whole: it may now be long enough to fold.
      const entry = this.entries.find((candidate) => candidate.id === entryId);
      if (entry) this.update(entry);
    }
  }

  private createRow(entry: ThreadEntry): Row {
    switch (entry.kind) {
      case 'user':
        return plainRow(this.userMessages.render(entry, steeredNote(entry.steered),
          this.checkpointPost ? checkpointActions(entry.id, this.checkpoints.get(entry.id), this.redo, this.checkpointPost) : null));
      case 'agentMessage':
      case 'thought':
        return markdownRow(entry);
      case 'toolCall':
        return plainRow(el('div', { class: 'entry tool-row', 'data-entry-id': entry.id }, renderToolCard(entry.tool, this.cards)));
      case 'plan':
        return plainRow(renderPlan(entry.id, entry.items, entry.stopped === true));
      case 'turnEnded':
        return plainRow(renderTurnEnded(entry));
      case 'notice':
        return plainRow(renderNotice(entry, this.cards.post));
      case 'elicitation':
        return plainRow(el('div', { class: 'entry', 'data-entry-id': entry.id }, renderElicitation(entry.elicitation, this.cards.post)));
      case 'compaction':
        return plainRow(renderCompaction(entry));
      default:
        return assertNever(entry, 'thread entry');
    }
  }

  private renderEmptyState(): void {
    if (this.rows.size > 0) return;
    this.emptyState = el('div', { class: 'empty-state' },
      icon('comment-discussion', 'empty-icon'),
      el('p', {}, panelStrings.emptyState),
      el('p', { class: 'hint' }, panelStrings.emptyStateTour),
      el('p', { class: 'hint' }, panelStrings.emptyStateHint));
    this.container.append(this.emptyState);
  }

  private scheduleFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame((now) => {
      this.frameRequested = false;
      // The cadence spaces the drawing of streamed text; a new card is followed in the next frame.
      if (!this.rowsChanged && !this.cadence.due(now)) return this.scheduleFrame();
      this.rowsChanged = false;
      this.cadence.render(now, () => {
        const behind = this.drawText();
        this.keepAtEnd();
        this.showJumpIfAway();
        return behind;
      });
      if (this.dirty.size > 0) this.scheduleFrame();
    });
  }

  /** "Latest" shows when something new is below a reader who went up and is still away from the end. */
  private showJumpIfAway(): void {
    if (!this.newBelow || !this.readerLeft || this.followBottom) return;
    if (this.distanceFromEnd() >= NEAR_END_PX) this.jumpToLatest.show();
  }

  private leaveEnd(): void {
    this.followBottom = false;
    this.readerLeft = true;
  }

  private hideJump(): void {
    this.newBelow = false;
    this.readerLeft = false;
    this.jumpToLatest.hide();
  }

  private distanceFromEnd(): number {
    return this.container.scrollHeight - this.container.scrollTop - this.container.clientHeight;
  }

  /** While the view follows the thread's end, it is scrolled there. */
  private keepAtEnd(): void {
    if (!this.followBottom) return;
    this.container.scrollTop = this.container.scrollHeight;
    this.ownScrollTop = this.container.scrollTop;
  }

  /** Draws the streamed text waiting to be drawn; true when a backlog is left for the next frame. */
  private drawText(): boolean {
    this.dirty = new Set([...this.dirty].filter((row) => row.markdown?.render() === true));
    return this.dirty.size > 0;
  }
}
