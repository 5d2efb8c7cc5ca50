/**
 * A frame the store keeps can be 16 MB (a large fs/read_text_file answer). Redacting it in one
 * go held the extension host for seconds (about 0.1-0.35 s per MB here), when the traffic
 * paused and again when the traffic channel was shown: its long values are now redacted a
 * piece at a time, and what comes out is what the redaction of the whole frame gives.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FrameRedactor, redactFrames } from '../../src/redaction/frameRedaction';
import { FrameStore } from '../../src/acp/frames';
import { type Frame } from '../../src/wire/frame';
import { redactFrameText } from '../../src/redaction/redact';
import { redactInSlices } from '../../src/redaction/slicedRedaction';
import { REDACTED } from '../../src/redaction/secrets';
import { longestBlock } from '../support/eventLoopGaps';
import { generated } from '../support/secretFormats';

const MB = 1024 * 1024;
/** A hang guard only: how long the host is held up is bench/hostIngest's figure (largeFrameRedaction.*). */
const HANG_GUARD_MS = 120_000;
/**
 * Turns of the event loop a 14 MB frame's redaction gives the host at the least: it is slices of
 * 12 ms, and takes over a second here (0.1-0.35 s per MB), so ten turns hold on a machine ten
 * times faster; redacted in one go it gives one turn between frames at most (3 frames here).
 */
const MIN_TURNS = 10;
const token = (seed: number) => `ghp_${generated(seed, 36)}`;

/** A source file with a credential now and then, about `bytes` long. */
function sourceFile(bytes: number): { content: string; secrets: string[] } {
  const lines: string[] = [];
  const secrets: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    let line = `  const value${index} = compute("item ${index}", { retries: ${index % 7} }); // 🌍 ünïcödé \\ "quoted"`;
    if (index % 997 === 0) {
      secrets.push(token(index));
      line = `export GITHUB_TOKEN=${secrets.at(-1) ?? ''}`;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return { content: `${lines.join('\n')}\n`, secrets };
}

const fsAnswer = (content: string, at = 1): Frame => ({ at, direction: 'out', text: JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content } }) });
const chunk = (text: string, at: number): Frame => ({
  at,
  direction: 'in',
  text: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } }),
});

describe('a large frame', () => {
  test('is redacted exactly as the whole frame is, with every credential masked', () => {
    const { content, secrets } = sourceFile(4 * MB);
    const frame = fsAnswer(content);
    const [shown] = redactFrames([frame]);
    assert.ok(shown?.text === redactFrameText(frame.text), 'the same text as the whole frame redacted at once');
    assert.ok(secrets.length > 20 && secrets.every((secret) => !shown.text.includes(secret.slice(4, 20))));
    assert.ok(shown.text.includes(`GITHUB_TOKEN=${REDACTED}`));
  });

  test('a credential that straddles the boundary between two pieces shows no part of itself', () => {
    // One line of credentials and nothing else: every piece boundary falls inside or next to one.
    const secrets = Array.from({ length: 30_000 }, (_, index) => token(index));
    const frame = fsAnswer(secrets.join(' '));
    const [shown] = redactFrames([frame]);
    const text = shown?.text ?? '';
    const parts = secrets.flatMap((secret) => [secret.slice(0, 12), secret.slice(-12)]);
    assert.deepEqual(parts.filter((part) => text.includes(part)), []);
    assert.ok(text.length < secrets.length * (REDACTED.length + 3), 'nothing but masks and spaces shows');
  });

  test('values of secret keys, env and headers are masked whole, and other values as ever', () => {
    const long = sourceFile(MB).content;
    const frame: Frame = {
      at: 1,
      direction: 'out',
      text: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'terminal/create', params: { env: [{ name: 'BIG', value: long }], headers: { X: long }, apiKey: long, args: ['--token', long], note: long } }),
    };
    const [shown] = redactFrames([frame]);
    assert.ok(shown?.text === redactFrameText(frame.text), 'the same text as the whole frame redacted at once');
    const params = (JSON.parse(shown.text) as { params: { env: { value: string }[]; headers: { X: string }; apiKey: string; note: string } }).params;
    assert.deepEqual([params.env[0]?.value, params.headers.X, params.apiKey], [REDACTED, REDACTED, REDACTED]);
    assert.ok(params.note.length > MB / 2 && !params.note.includes('ghp_'));
  });

  test('a large streamed piece is read with the piece before it: a credential split between them is masked', () => {
    const secret = token(1);
    const frames = [chunk(`Use ${secret.slice(0, 10)}`, 1), chunk(`${secret.slice(10)} to push. ${'then more words. '.repeat(20_000)}`, 2)];
    const shown = redactFrames(frames).map((frame) => frame.text).join('\n');
    assert.ok(!shown.includes(secret.slice(0, 10)) && !shown.includes(secret.slice(10)), 'neither half shows');
  });

  test('kept by the store, it is redacted when the traffic pauses without holding the host up', { timeout: HANG_GUARD_MS }, async (t) => {
    const store = new FrameStore();
    t.after(() => store.dispose());
    const { content } = sourceFile(14 * MB);
    const frame = fsAnswer(content, 2);
    const after = chunk('then a word. ', 3);
    store.record(chunk('before. ', 1));
    store.record(frame);
    store.record(after);
    const { result: redacted, turns } = await longestBlock(() => store.redacted([frame, after]));
    assert.ok(redacted?.[0]?.text === redactFrameText(frame.text), 'the same text as the whole frame redacted at once');
    assert.equal(redacted?.[1]?.text, after.text);
    // In one go (0.8-6 s here) the host got a turn between frames at most; in slices of 12 ms it gets one every slice.
    assert.ok(turns >= MIN_TURNS, `the host got ${turns} turn(s) while the store redacted`);
  });

  test('exported or searched afresh (frames that left the store), it is redacted without holding the host up', { timeout: HANG_GUARD_MS }, async () => {
    const { content, secrets } = sourceFile(14 * MB);
    const frames = [chunk('still typ', 1), fsAnswer(content, 2), chunk('then a word. ', 3)];
    const { result: redacted, turns } = await longestBlock(() => redactInSlices(frames));
    assert.deepEqual(redacted.map((frame) => frame.text), redactFrames(frames).map((frame) => frame.text), 'what redacting them all at once gives');
    assert.ok(secrets.every((secret) => !(redacted[1]?.text ?? secret).includes(secret)), 'no credential of the file shows');
    assert.ok(turns >= MIN_TURNS, `the host got ${turns} turn(s) while the frames were redacted`);
  });

  test('the steps give what push gives, in the same order', () => {
    const { content } = sourceFile(MB);
    const frames = [chunk('still typ', 1), fsAnswer(content, 2)];
    const stepped = new FrameRedactor();
    const out = [...stepped.push(frames[0] as Frame)];
    const steps = stepped.steps(frames[1] as Frame);
    let count = 0;
    for (let step = steps.next(); ; step = steps.next(), count++) {
      if (step.done) {
        out.push(...step.value);
        break;
      }
    }
    assert.ok(count > 10, `${count} steps`);
    assert.deepEqual(out, redactFrames(frames));
  });
});
