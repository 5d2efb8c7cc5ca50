import type { Frame } from '../wire/frame';
import { parseFrameText } from '../redaction/redact';
import type { ConnectionView, FrameFilterView, FrameRowView } from './frameRows';
import { redactSecrets } from '../redaction/secrets';
import { deliveryMarks } from './deliveryCheck';
import { filterFrames, NO_FILTER } from './frameFilter';
import { redactInSlices, type Redaction } from '../redaction/slicedRedaction';
import { buildFrameIndex, type FrameIndex, type FrameMark, type IndexedFrame } from './frameIndex';

function isEmpty(filter: FrameFilterView): boolean {
  return filter.direction === null && filter.method === null && filter.toolCallId === null && filter.connection === null && !filter.text && !filter.markedOnly;
}

/**
 * What the inspector shows of one conversation's frames. The list comes from the index at once;
 * every text the user can read or search (details, search, and the names in the rows) is
 * redacted as the traffic log redacts it, so nothing the user searches for was hidden by the
 * redaction. The frames' text is redacted once, in the background (or taken from the frame
 * store, which redacts each frame once as it comes).
 */
export class InspectorModel {
  readonly index: FrameIndex;
  private current: FrameFilterView = NO_FILTER;
  private redacted: Promise<Frame[]> | null = null;
  /** Names in rows repeat (methods, sessions, tool calls): each is redacted once. */
  private readonly names = new Map<string, string>();

  constructor(private readonly frames: readonly Frame[], private readonly redaction: Redaction = redactInSlices) {
    this.index = buildFrameIndex(frames);
  }

  get filter(): FrameFilterView {
    return this.current;
  }

  /** The frames as the traffic log shows them. */
  shown(): Promise<readonly Frame[]> {
    this.redacted ??= this.redaction(this.frames);
    return this.redacted;
  }

  /** Every method seen, for the method filter. */
  methods(): string[] {
    return this.index.methods.map((method) => this.name(method) ?? method);
  }

  /** Every connection seen, named by its agent, for the connection filter. */
  connections(): ConnectionView[] {
    return this.index.connections.map(({ connection, agent }) => ({ connection, agent: this.name(agent) }));
  }

  rows(): FrameRowView[] {
    return this.index.frames.map((frame) => this.rowOf(frame));
  }

  /** The rows that pass, or null when every row does (nothing to send). Searching waits for the redaction. */
  async applyFilter(filter: FrameFilterView): Promise<number[] | null> {
    this.current = filter;
    if (isEmpty(filter)) return null;
    const texts = filter.text ? await this.shown() : this.frames;
    return filterFrames(this.index, texts, filter);
  }

  /** The frame's redacted text for the details pane: indented when it is JSON, as sent when not. */
  async detail(position: number): Promise<{ text: string; toolCallId: string | null } | null> {
    const indexed = this.index.frames[position];
    const frame = indexed ? (await this.shown())[position] : undefined;
    if (!frame || !indexed) return null;
    const value = parseFrameText(frame.text);
    return { text: value === undefined ? frame.text : JSON.stringify(value, null, 2), toolCallId: indexed.toolCallId };
  }

  /**
   * Marks the updates the SDK dropped or changed on the way (see `deliveryMarks`), checked on the
   * frames as they came; slower than the index, so it comes after the list is shown.
   */
  async checkDelivery(): Promise<{ index: number; mark: FrameMark }[]> {
    const marks = await deliveryMarks(this.frames, this.index);
    const set: { index: number; mark: FrameMark }[] = [];
    for (const [index, mark] of marks) {
      const frame = this.index.frames[index];
      if (!frame) continue;
      frame.mark = mark;
      set.push({ index, mark: this.markOf(mark) });
    }
    return set;
  }

  private name(value: string | null): string | null {
    if (value === null) return null;
    let shown = this.names.get(value);
    if (shown === undefined) {
      shown = redactSecrets(value);
      this.names.set(value, shown);
    }
    return shown;
  }

  private markOf(mark: FrameMark): FrameMark {
    return { kind: mark.kind, reason: this.name(mark.reason) ?? '' };
  }

  private rowOf(frame: IndexedFrame): FrameRowView {
    return {
      index: frame.index,
      at: frame.at,
      direction: frame.direction,
      kind: frame.kind,
      method: this.name(frame.method),
      id: this.name(frame.id),
      updateKind: this.name(frame.updateKind),
      sessionId: this.name(frame.sessionId),
      size: frame.size,
      latencyMs: frame.latencyMs,
      pair: frame.pair,
      toolCallId: this.name(frame.toolCallId),
      connection: frame.connection,
      mark: frame.mark ? this.markOf(frame.mark) : null,
    };
  }
}
