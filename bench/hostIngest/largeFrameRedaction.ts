/**
 * Redaction of the largest frame the frame store keeps (16 MB, a large fs/read_text_file
 * answer): the longest time the event loop went without a turn while the store redacted it in
 * steps, and while it was redacted afresh in slices (an export or search of frames that left
 * the store), against redacting the same frame in one synchronous call (as the store did
 * before). Rounds alternate which goes first.
 */
import { performance } from 'node:perf_hooks';
import { FrameStore } from '../../src/acp/frames';
import { type Frame } from '../../src/wire/frame';
import { redactFrameText } from '../../src/redaction/redact';
import { redactInSlices } from '../../src/redaction/slicedRedaction';
import { longestBlock } from '../../test/support/eventLoopGaps';
import { distribution, single, type Figures } from '../shared/figures';
import { WARMUP_ROUNDS } from '../shared/resources';

const MB = 1024 * 1024;
/** The store's byte budget counts a frame's characters and 32 more. */
const FRAME_CHARS = 16 * MB - 64;

/** A source file's answer, a credential now and then, just within `FRAME_CHARS` as a frame. */
function fsAnswer(): Frame {
  const lines: string[] = [];
  // As written in the frame: each line escaped, with its quotes standing in for the escaped line break.
  for (let index = 0, size = 64; ; index++) {
    const line = index % 1000 === 0
      ? `export GITHUB_TOKEN=ghp_${String(index).padStart(36, 'k')}`
      : `  const value${index} = compute("item ${index}", { retries: ${index % 7}, url: 'https://example.com/a?b=${index}' });`;
    size += JSON.stringify(line).length;
    if (size > FRAME_CHARS) break;
    lines.push(line);
  }
  return { at: 1, direction: 'out', text: JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: lines.join('\n') } }) };
}

/** The longest gap between two turns of the event loop while the store redacts `frame`. */
async function longestSliceMs(frame: Frame): Promise<number> {
  const store = new FrameStore();
  try {
    store.record(frame);
    const { result: redacted, longest } = await longestBlock(() => store.redacted([frame]));
    if (!redacted) throw new Error('the store did not keep the frame');
    return longest;
  } finally {
    store.dispose();
  }
}

/** The longest gap between two turns of the event loop while `frame` is redacted afresh, in slices. */
async function longestAfreshSliceMs(frame: Frame): Promise<number> {
  return (await longestBlock(() => redactInSlices([frame]))).longest;
}

function inOneGoMs(frame: Frame): number {
  const started = performance.now();
  redactFrameText(frame.text);
  return performance.now() - started;
}

export async function measureLargeFrameRedaction(runs: number): Promise<Figures> {
  const frame = fsAnswer();
  const sliced: number[] = [];
  const afresh: number[] = [];
  const whole: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    const counted = round >= WARMUP_ROUNDS;
    const steps = [async () => sliced.push(await longestSliceMs(frame)), async () => afresh.push(await longestAfreshSliceMs(frame)), () => whole.push(inOneGoMs(frame))];
    for (const step of round % 2 === 0 ? steps : steps.reverse()) await step();
    if (!counted) {
      sliced.pop();
      afresh.pop();
      whole.pop();
    }
  }
  return {
    longestSliceMs: distribution(sliced, 'ms'),
    longestAfreshSliceMs: distribution(afresh, 'ms'),
    inOneGoMs: distribution(whole, 'ms'),
    frameMB: single(frame.text.length / MB, 'MB'),
  };
}
