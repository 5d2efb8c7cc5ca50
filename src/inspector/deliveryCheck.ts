import * as acp from '@agentclientprotocol/sdk';
import type { Frame } from '../wire/frame';
import { parseFrameText } from '../redaction/redact';
import { isRecord } from '../util/untrustedJson';
import type { FrameIndex, FrameMark } from './frameIndex';

/** Written after the frames: once it is delivered, every frame before it was handled. */
const END_SESSION = '\u0000tandem-delivery-check-end';
const END_LINE = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: END_SESSION, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } } } });
const MAX_PATHS = 3;
const CHECK_MS = 30_000;

/** Equal as JSON values: the SDK writes members back in an order of its own. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((value, i) => sameJson(value, b[i]));
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** Where `sent` and `delivered` differ: members removed or changed on the way, as dotted paths. */
function changedPaths(sent: unknown, delivered: unknown, at: string, out: string[]): void {
  if (out.length >= MAX_PATHS) return;
  if (isRecord(sent) && isRecord(delivered)) {
    for (const [key, value] of Object.entries(sent)) changedPaths(value, delivered[key], at ? `${at}.${key}` : key, out);
    return;
  }
  if (Array.isArray(sent) && Array.isArray(delivered) && sent.length === delivered.length) {
    sent.forEach((value, i) => changedPaths(value, delivered[i], `${at}[${i}]`, out));
    return;
  }
  if (!sameJson(sent, delivered)) out.push(at || '(the whole message)');
}

function sameUpdate(sent: Record<string, unknown>, delivered: Record<string, unknown>): boolean {
  const a = isRecord(sent.update) ? sent.update : {};
  const b = isRecord(delivered.update) ? delivered.update : {};
  return sent.sessionId === delivered.sessionId && a.sessionUpdate === b.sessionUpdate && a.toolCallId === b.toolCallId;
}

/** Every `session/update` the SDK handed on, in order, after the SDK validated `lines`. */
async function deliveredBySdk(lines: readonly string[]): Promise<Record<string, unknown>[]> {
  const delivered: Record<string, unknown>[] = [];
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const line of [...lines, END_LINE]) controller.enqueue(encoder.encode(`${line}\n`));
    },
  });
  // Answers the SDK writes back (parse errors) go nowhere: this connection only validates.
  const output = new WritableStream<Uint8Array>();
  const connection = acp.client({ name: 'tandem-delivery-check' })
    .onNotification(acp.methods.client.session.update, (ctx) => {
      if (ctx.params.sessionId === END_SESSION) finish();
      else delivered.push(ctx.params as unknown as Record<string, unknown>);
    })
    .connect(acp.ndJsonStream(output, input));
  const timer = setTimeout(finish, CHECK_MS);
  connection.signal.addEventListener('abort', () => finish(), { once: true });
  await finished;
  clearTimeout(timer);
  connection.close();
  return delivered;
}

/**
 * Which of the agent's `session/update`s the SDK dropped as invalid, and which it changed on
 * the way (a member it did not know removed, a bad value replaced), found by passing the
 * frames through the SDK's own validation again and comparing what comes out with what was
 * sent. The frames are those the index was built over.
 */
export async function deliveryMarks(frames: readonly Frame[], index: FrameIndex): Promise<Map<number, FrameMark>> {
  const updates = index.frames.filter((frame) => frame.direction === 'in' && frame.kind === 'notification' && frame.method === 'session/update');
  const delivered = await deliveredBySdk(updates.map((frame) => frames[frame.index]?.text ?? ''));
  const marks = new Map<number, FrameMark>();
  const sentParams = updates.map((frame) => {
    const message = parseFrameText(frames[frame.index]?.text ?? '');
    return isRecord(message) && isRecord(message.params) ? message.params : {};
  });
  let next = 0;
  for (const [position, frame] of updates.entries()) {
    const sent = sentParams[position] as Record<string, unknown>;
    const candidate = delivered[next];
    // Updates alike in kind and tool call: a changed one followed by one delivered unchanged was dropped itself.
    const following = sentParams[position + 1];
    const nextTakesIt = candidate !== undefined && following !== undefined && sameJson(following, candidate) && !sameJson(sent, candidate);
    if (!candidate || !sameUpdate(sent, candidate) || nextTakesIt) {
      marks.set(frame.index, { kind: 'dropped', reason: 'the SDK found it invalid and dropped it: it never reached the conversation' });
      continue;
    }
    next++;
    const paths: string[] = [];
    changedPaths(sent, candidate, '', paths);
    if (paths.length > 0) marks.set(frame.index, { kind: 'salvaged', reason: `the SDK changed it on the way (${paths.join(', ')}): the conversation got the rest` });
  }
  return marks;
}
