import { z } from 'zod';

/** Why a frame did not reach the conversation as it was sent. */
export type FrameMarkKindView = 'malformed' | 'dropped' | 'salvaged' | 'unknown';

/** What one line of the traffic is, as JSON-RPC 2.0 sees it. */
export type RpcKindView = 'request' | 'notification' | 'result' | 'error' | 'malformed';

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

/** Host -> inspector. Each `type` carries exactly its payload. */
export type HostToInspector =
  /** Everything the list needs; `visible` null: every row passes the filter. */
  | { type: 'frames'; title: string; note: string | null; rows: FrameRowView[]; methods: string[]; connections: ConnectionView[]; filter: FrameFilterView; visible: number[] | null }
  | { type: 'filtered'; filter: FrameFilterView; visible: number[] | null }
  /** Marks found after the list was sent (updates the SDK dropped or changed on the way). */
  | { type: 'marks'; marks: { index: number; mark: NonNullable<FrameRowView['mark']> }[] }
  /** The selected frame's text, redacted (pretty when it is JSON). */
  | { type: 'detail'; index: number; text: string; inThread: boolean };

const filterSchema = z.object({
  direction: z.enum(frameDirections).nullable(),
  method: z.string().max(500).nullable(),
  toolCallId: z.string().max(500).nullable(),
  connection: z.number().int().min(0).nullable(),
  text: z.string().max(10_000).nullable(),
  markedOnly: z.boolean(),
});

/** Inspector -> host, validated at the boundary like every webview message. */
const inspectorToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('filter'), filter: filterSchema }),
  z.object({ type: z.literal('select'), index: z.number().int().min(0) }),
  z.object({ type: z.literal('showInThread'), toolCallId: z.string().min(1).max(500) }),
  z.object({ type: z.literal('export') }),
  z.object({ type: z.literal('showReport') }),
  z.object({ type: z.literal('refresh') }),
]);

export type InspectorToHost = z.infer<typeof inspectorToHostSchema>;

export function parseInspectorMessage(value: unknown): InspectorToHost | null {
  const parsed = inspectorToHostSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
