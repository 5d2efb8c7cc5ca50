import type { Readable } from 'node:stream';

/**
 * Reads an agent's output as it arrives, synchronously, and decides what of it the SDK gets:
 * one plain call per read instead of a web stream stage per reader, which on a stream of
 * small reads (an agent writes a line per token) cost more than the reading itself.
 */
export interface OutputReader {
  /** Called once, before any read: `pass` hands bytes on to the SDK, in order, now or later. */
  start(pass: (bytes: Uint8Array) => void): void;
  /** One read of the output; the chunk is the reader's own (a copy). */
  read(chunk: Buffer): void;
  /** The output ended; the SDK's stream ends once this has handed on everything it held. */
  end(): void | Promise<void>;
}

/** Hands on every byte as it is read. */
function passingReader(): OutputReader {
  let pass: (bytes: Uint8Array) => void = () => undefined;
  return {
    start: (handOn) => {
      pass = handOn;
    },
    read: (chunk) => pass(chunk),
    end: () => undefined,
  };
}

/**
 * An agent's output (a Node stream) as the web stream the SDK reads, through `reader`. Node's
 * own `Readable.toWeb` throws an uncaught ERR_INVALID_STATE, which would take the extension
 * host down, when its reader cancels while buffered output is still being delivered
 * (nodejs/node#64529): exactly what happens when the SDK ends a connection on a bad frame
 * while the agent keeps writing. Here nothing is delivered after a cancel.
 */
export function agentOutputStream(output: Readable, reader: OutputReader = passingReader()): ReadableStream<Uint8Array> {
  /** `ending`: the output ended and the reader is handing on what it held. */
  let state: 'reading' | 'ending' | 'done' = 'reading';
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const finish = (end: (target: ReadableStreamDefaultController<Uint8Array>) => void) => {
    if (state === 'done') return;
    state = 'done';
    if (controller) end(controller);
  };
  output.pause();
  output.on('data', (chunk: Buffer | string) => {
    if (state !== 'reading' || !controller) return;
    // A copy: Node may hand out slices of a pooled buffer it reuses.
    reader.read(Buffer.from(chunk));
    if ((controller.desiredSize ?? 0) <= 0) output.pause();
  });
  output.once('end', () => {
    if (state !== 'reading') return;
    state = 'ending';
    void Promise.resolve(reader.end()).then(() => finish((target) => target.close()));
  });
  // Kept after the end too: a later 'error' without a listener would be thrown.
  output.on('error', (error) => {
    if (state === 'reading') finish((target) => target.error(error));
  });
  output.once('close', () => {
    if (state === 'reading') finish((target) => target.error(new Error('the agent\'s output closed before its end')));
  });
  return new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
      reader.start((bytes) => {
        if (state !== 'done') started.enqueue(bytes);
      });
    },
    pull() {
      output.resume();
    },
    cancel() {
      state = 'done';
      output.destroy();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: output.readableHighWaterMark }));
}
