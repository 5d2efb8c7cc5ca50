import { z } from 'zod';
import { frameDirections, type ConnectionView, type FrameFilterView, type FrameRowView } from '../inspector/frameRows';

export type { RpcKindView } from '../wire/rpcKinds';
export { frameDirections, type FrameMarkKindView, type FrameRowView, type ConnectionView, type FrameFilterView } from '../inspector/frameRows';

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
