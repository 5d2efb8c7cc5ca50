import type { Frame } from '../acp/frames';
import { redactFrames } from '../acp/frameRedaction';
import { parseFrameText } from '../acp/redact';
import type { FrameFilterView, FrameRowView } from '../contract/inspectorView';
import { deliveryMarks } from './deliveryCheck';
import { filterFrames, NO_FILTER } from './frameFilter';
import { buildFrameIndex, type FrameIndex, type FrameMark, type IndexedFrame } from './frameIndex';

function rowOf(frame: IndexedFrame): FrameRowView {
  return {
    index: frame.index,
    at: frame.at,
    direction: frame.direction,
    kind: frame.kind,
    method: frame.method,
    id: frame.id,
    updateKind: frame.updateKind,
    sessionId: frame.sessionId,
    size: frame.size,
    latencyMs: frame.latencyMs,
    pair: frame.pair,
    toolCallId: frame.toolCallId,
    mark: frame.mark,
  };
}

function isEmpty(filter: FrameFilterView): boolean {
  return filter.direction === null && filter.method === null && filter.toolCallId === null && !filter.text && !filter.markedOnly;
}

/**
 * What the inspector shows of one conversation's frames: redacted once, as the traffic log shows
 * them, and indexed once; filters and details work on that copy, so nothing the user searches
 * or reads was hidden by the redaction.
 */
export class InspectorModel {
  readonly shown: readonly Frame[];
  readonly index: FrameIndex;
  private current: FrameFilterView = NO_FILTER;

  constructor(frames: readonly Frame[]) {
    this.shown = redactFrames(frames);
    this.index = buildFrameIndex(this.shown);
  }

  get filter(): FrameFilterView {
    return this.current;
  }

  rows(): FrameRowView[] {
    return this.index.frames.map(rowOf);
  }

  /** The rows that pass, or null when every row does (nothing to send). */
  applyFilter(filter: FrameFilterView): number[] | null {
    this.current = filter;
    return isEmpty(filter) ? null : filterFrames(this.index, this.shown, filter);
  }

  /**
   * Marks the updates the SDK dropped or changed on the way (see `deliveryMarks`); slower than
   * the index, so it comes after the list is shown. Returns the marks it set.
   */
  async checkDelivery(): Promise<{ index: number; mark: FrameMark }[]> {
    const marks = await deliveryMarks(this.shown, this.index);
    const set: { index: number; mark: FrameMark }[] = [];
    for (const [index, mark] of marks) {
      const frame = this.index.frames[index];
      if (!frame) continue;
      frame.mark = mark;
      set.push({ index, mark });
    }
    return set;
  }

  /** The frame's text for the details pane: indented when it is JSON, as sent when not. */
  detail(position: number): { text: string; toolCallId: string | null } | null {
    const frame = this.shown[position];
    const indexed = this.index.frames[position];
    if (!frame || !indexed) return null;
    const value = parseFrameText(frame.text);
    return { text: value === undefined ? frame.text : JSON.stringify(value, null, 2), toolCallId: indexed.toolCallId };
  }
}
