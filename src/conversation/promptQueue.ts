import type { MentionView, PromptImageView, PromptQueueView, QueuedPromptView } from './queuedPrompts';
import { Emitter } from '../util/emitter';
import type { Disposable } from '../util/disposable';

export interface PromptInput {
  text: string;
  mentions: readonly MentionView[];
  images: readonly PromptImageView[];
}

const MAX_QUEUED = 50;

/**
 * Messages typed while a conversation's turn runs, in the order they go out. The host keeps
 * them (not the webview), so they survive the panel being hidden or reloaded and are sent when
 * the turn ends even if nobody is looking.
 */
export class PromptQueue implements Disposable {
  private items: QueuedPromptView[] = [];
  private nextId = 1;
  private paused = false;
  private steerable = false;
  private readonly changeEmitter = new Emitter<void>();
  readonly onDidChange = this.changeEmitter.event;

  get length(): number {
    return this.items.length;
  }

  /** False when the queue is full. */
  add(prompt: PromptInput): boolean {
    if (this.items.length >= MAX_QUEUED) return false;
    this.items.push({ id: `q${this.nextId++}`, text: prompt.text, mentions: [...prompt.mentions], images: [...prompt.images] });
    this.changed();
    return true;
  }

  /** Removes and returns the message (to edit or drop it). */
  take(id: string): QueuedPromptView | undefined {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item) return undefined;
    this.items = this.items.filter((candidate) => candidate !== item);
    if (this.items.length === 0) this.paused = false;
    this.changed();
    return item;
  }

  /** A message taken out to be steered that the agent did not take: it goes out next, as it was. */
  putBack(item: QueuedPromptView): void {
    this.items = [item, ...this.items.filter((candidate) => candidate.id !== item.id)];
    this.changed();
  }

  /** Whether the running turn takes messages into it (each queued one then offers Steer). */
  setSteerable(steerable: boolean): void {
    if (this.steerable === steerable) return;
    this.steerable = steerable;
    this.changed();
  }

  /** Makes the message the next one out; false if it is not queued. */
  moveToFront(id: string): boolean {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item) return false;
    this.items = [item, ...this.items.filter((candidate) => candidate !== item)];
    this.changed();
    return true;
  }

  /** The next message to send, removed from the queue; nothing while paused. */
  next(): QueuedPromptView | undefined {
    if (this.paused) return undefined;
    const item = this.items.shift();
    if (item) this.changed();
    return item;
  }

  /** Holds the queue (the user stopped the agent); only meaningful while something waits. */
  pause(): void {
    if (this.paused || this.items.length === 0) return;
    this.paused = true;
    this.changed();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.changed();
  }

  view(): PromptQueueView {
    return { items: this.items.map((item) => ({ ...item })), paused: this.paused, steerable: this.steerable };
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private changed(): void {
    this.changeEmitter.fire(undefined);
  }
}
