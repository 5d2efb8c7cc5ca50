/**
 * Redaction of a streamed answer, frame by frame as the frame store (in the pauses) and the
 * Tandem Traffic channel (live, while it is shown) do it: the bench's markdown answer in
 * CHUNK-character agent_message_chunk frames through one FrameRedactor, time per 1,000 frames.
 */
import { performance } from 'node:perf_hooks';
import { FrameRedactor } from '../../src/redaction/frameRedaction';
import type { Frame } from '../../src/wire/frame';
import { distribution, single, type Figures } from '../shared/figures';
import { WARMUP_ROUNDS } from '../shared/resources';
import { benchMarkdown, CHUNK } from '../shared/streamedAnswer';

const ANSWER_CHARS = 200_000;

function chunkFrames(text: string): Frame[] {
  const frames: Frame[] = [];
  for (let at = 0; at * CHUNK < text.length; at++) {
    const chunk = text.slice(at * CHUNK, (at + 1) * CHUNK);
    frames.push({ at, direction: 'in', text: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } } } }) });
  }
  return frames;
}

export function measureStreamRedaction(runs: number): Figures {
  const frames = chunkFrames(benchMarkdown(ANSWER_CHARS));
  const perThousand: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + runs; round++) {
    const redactor = new FrameRedactor();
    const started = performance.now();
    let shown = 0;
    for (const frame of frames) shown += redactor.push(frame).length;
    shown += redactor.releaseStale(Number.POSITIVE_INFINITY).length;
    const elapsed = performance.now() - started;
    if (shown !== frames.length) throw new Error(`stream redaction bench: ${shown} of ${frames.length} frames came out`);
    if (round >= WARMUP_ROUNDS) perThousand.push((elapsed * 1000) / frames.length);
  }
  return { msPer1000Frames: distribution(perThousand, 'ms'), frames: single(frames.length, 'count') };
}
