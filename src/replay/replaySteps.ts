import type { Frame } from '../wire/frame';
import { parseFrameText } from '../redaction/redact';
import { buildFrameIndex } from '../inspector/frameIndex';
import { rpcMessage, type RpcMessage } from '../wire/rpcMessage';

/** One thing that happens in a replay, in the recording's order. */
export type ReplayStep =
  /** A frame the agent sent; `answers`: the recorded id of the client request it answers. */
  | { kind: 'agentFrame'; frame: Frame; answers: string | null }
  /** The client sent a request: the replaying client must send it too before the agent answers. */
  | { kind: 'clientRequest'; recordedId: string; method: string; params: unknown }
  /** The client answered the agent's request `agentRequestId` (by its id key). */
  | { kind: 'clientAnswer'; agentRequestId: string; method: string; request: unknown; answer: RpcMessage }
  | { kind: 'clientNotification'; method: string; params: unknown };

type Indexed = ReturnType<typeof buildFrameIndex>['frames'][number];

/** What one frame is in a replay; null for an agent's answer to nothing the client asked (it cannot be matched). */
function stepOf(frame: Indexed, raw: Frame, frames: readonly Frame[], index: ReturnType<typeof buildFrameIndex>): ReplayStep | null {
  const paramsOf = (position: number): unknown => {
    const message = rpcMessage(parseFrameText(frames[position]?.text ?? ''));
    return message.kind === 'request' || message.kind === 'notification' ? message.params : undefined;
  };
  const answer = frame.kind === 'result' || frame.kind === 'error';
  const request = answer && frame.pair !== null ? index.frames[frame.pair] : undefined;
  if (frame.direction === 'in') return answer && !request ? null : { kind: 'agentFrame', frame: raw, answers: request?.id ?? null };
  if (!frame.method) return null;
  if (frame.kind === 'request' && frame.id !== null) return { kind: 'clientRequest', recordedId: frame.id, method: frame.method, params: paramsOf(frame.index) };
  if (request) {
    return { kind: 'clientAnswer', agentRequestId: request.id ?? '', method: frame.method, request: paramsOf(request.index), answer: rpcMessage(parseFrameText(raw.text)) };
  }
  if (frame.kind === 'notification') return { kind: 'clientNotification', method: frame.method, params: paramsOf(frame.index) };
  return null;
}

/** The recording as replay steps: the agent's frames to play, and the points where the client acted. */
export function replaySteps(frames: readonly Frame[], index = buildFrameIndex(frames)): ReplayStep[] {
  const steps: ReplayStep[] = [];
  for (const frame of index.frames) {
    const step = stepOf(frame, frames[frame.index] as Frame, frames, index);
    if (step) steps.push(step);
  }
  return steps;
}
