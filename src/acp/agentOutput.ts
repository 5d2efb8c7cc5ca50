import type { Readable } from 'node:stream';

/**
 * An agent's output (a Node stream) as the web stream the SDK reads. Node's own
 * `Readable.toWeb` throws an uncaught ERR_INVALID_STATE, which would take the extension host
 * down, when its reader cancels while buffered output is still being delivered
 * (nodejs/node#64529): exactly what happens when the SDK ends a connection on a bad frame
 * while the agent keeps writing. Here nothing is delivered after a cancel.
 */
export function agentOutputStream(output: Readable): ReadableStream<Uint8Array> {
  let finished = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const finish = (end: (target: ReadableStreamDefaultController<Uint8Array>) => void) => {
    if (finished) return;
    finished = true;
    if (controller) end(controller);
  };
  output.pause();
  output.on('data', (chunk: Buffer | string) => {
    if (finished || !controller) return;
    // A copy: Node may hand out slices of a pooled buffer it reuses.
    controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));
    if ((controller.desiredSize ?? 0) <= 0) output.pause();
  });
  output.once('end', () => finish((target) => target.close()));
  // Kept after the end too: a later 'error' without a listener would be thrown.
  output.on('error', (error) => finish((target) => target.error(error)));
  output.once('close', () => finish((target) => target.error(new Error('the agent\'s output closed before its end'))));
  return new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
    },
    pull() {
      output.resume();
    },
    cancel() {
      finished = true;
      output.destroy();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: output.readableHighWaterMark }));
}
