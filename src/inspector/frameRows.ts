/**
 * A frame as a row of the inspector, the mark it may carry, and the filter over the rows: what the
 * inspector's model builds and its page shows. Plain data: src/contract publishes it to the page.
 */
import type { RpcKindView } from '../wire/rpcKinds';

/** Why a frame did not reach the conversation as it was sent. */
export type FrameMarkKindView = 'malformed' | 'dropped' | 'salvaged' | 'unknown';

/** One frame as a row of the inspector: what the list shows without the frame's text. */
export interface FrameRowView {
  /** Position in the conversation's frames (the row number is this + 1). */
  index: number;
  /** Milliseconds since the epoch. */
  at: number;
  direction: 'in' | 'out';
  kind: RpcKindView;
  /** The frame's method, or for an answer its request's. */
  method: string | null;
  /** JSON-RPC id as a key (`3`, `"abc"`). */
  id: string | null;
  updateKind: string | null;
  sessionId: string | null;
  /** UTF-8 bytes. */
  size: number;
  latencyMs: number | null;
  /** The request of an answer, the answer of a request. */
  pair: number | null;
  toolCallId: string | null;
  /** The connection (agent process) the frame went over, numbered in the order they opened. */
  connection: number | null;
  mark: { kind: FrameMarkKindView; reason: string } | null;
}

/** One connection whose frames the inspector holds: its number and the agent that answered its `initialize`. */
export interface ConnectionView {
  connection: number;
  agent: string | null;
}

export const frameDirections = ['in', 'out'] as const;

export interface FrameFilterView {
  direction: (typeof frameDirections)[number] | null;
  method: string | null;
  toolCallId: string | null;
  connection: number | null;
  text: string | null;
  markedOnly: boolean;
}
