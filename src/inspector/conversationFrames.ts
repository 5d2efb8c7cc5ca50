import type { Frame } from '../wire/frame';
import type { FrameIndex, IndexedFrame } from './frameIndex';

/** Requests about the connection rather than a session: the ones that open it belong to every session on it. */
const CONNECTION_SETUP = new Set(['initialize', 'authenticate']);

/** A request that opened the connection `first` went over (any connection, when the frames do not say). */
function setsUp(frame: IndexedFrame, first: IndexedFrame): boolean {
  if (frame.direction !== 'out' || frame.kind !== 'request' || !CONNECTION_SETUP.has(frame.method ?? '')) return false;
  return first.connection === null || frame.connection === null || frame.connection === first.connection;
}

/**
 * One conversation's frames out of the window's traffic: those of its sessions (requests,
 * updates and the answers paired with them) and the connection setup (`initialize`, sign-in)
 * that came last before its first session frame, on the same connection when the frames say
 * which. Traffic of other agents and sessions stays out.
 */
export function conversationFrames(frames: readonly Frame[], index: FrameIndex, sessionIds: ReadonlySet<string>): Frame[] {
  const first = index.frames.find((frame) => frame.sessionId !== null && sessionIds.has(frame.sessionId));
  if (!first) return [];
  const setup = new Set<number>();
  for (let i = first.index - 1; i >= 0; i--) {
    const frame = index.frames[i];
    if (!frame || !setsUp(frame, first)) continue;
    setup.add(frame.index);
    if (frame.pair !== null) setup.add(frame.pair);
    if (frame.method === 'initialize') break;
  }
  const out: Frame[] = [];
  for (const frame of index.frames) {
    const ours = frame.sessionId !== null && sessionIds.has(frame.sessionId);
    if (ours || setup.has(frame.index)) out.push(frames[frame.index] as Frame);
  }
  return out;
}
