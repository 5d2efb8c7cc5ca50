import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeSkipped, exportFrames, MAX_RECORDING_BYTES, readRecording, RecordingError, writeRecording } from '../../src/inspector/recording';
import { REDACTED } from '../../src/redaction/secrets';
import { FrameScript } from '../support/frameBuilders';

const header = { protocolVersion: 1, agent: { name: 'test-agent', title: 'Test', version: '1.0.0' }, cwd: '/work', recordedAt: '2025-01-01T00:00:00.000Z' };
const secret = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';

function sample(): FrameScript {
  return new FrameScript()
    .open('s1')
    .request('in', 0, 'terminal/create', { sessionId: 's1', command: 'deploy', env: [{ name: 'API_KEY', value: 'hunter2' }] }, 40)
    .line('in', `not json ${secret}`)
    .update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `the key is ${secret} ` } });
}

describe('export and recording', () => {
  test('an export is one line per frame, redacted as the traffic log is', async () => {
    const frames = sample().frames;
    const text = await exportFrames(frames);
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, frames.length);
    assert.ok(!text.includes(secret) && !text.includes('hunter2'));
    assert.ok(text.includes(REDACTED));
    const first = JSON.parse(lines[0] as string) as { dir: string; msg: { method: string } };
    assert.equal(first.dir, 'out');
    assert.equal(first.msg.method, 'initialize');
    assert.match(lines[5] as string, /"raw":"not json /);
  });

  test('a recording reads back as the frames it holds, redacted, with times since the first frame', async () => {
    const frames = sample().frames;
    const loaded = readRecording(await writeRecording(header, frames));
    assert.deepEqual(loaded.skipped, []);
    assert.equal(loaded.header.agent?.name, 'test-agent');
    assert.equal(loaded.frames.length, frames.length);
    assert.deepEqual(loaded.frames.map((frame) => frame.at), frames.map((frame) => frame.at - (frames[0]?.at ?? 0)));
    assert.deepEqual(loaded.frames.map((frame) => frame.direction), frames.map((frame) => frame.direction));
    assert.ok(!loaded.frames.some((frame) => frame.text.includes(secret) || frame.text.includes('hunter2')));
    assert.deepEqual(JSON.parse(loaded.frames[2]?.text ?? ''), JSON.parse(frames[2]?.text ?? ''));
  });

  test('what is not a recording, or from a format or protocol Tandem does not know, is refused with the reason', () => {
    const refuses = (text: string, pattern: RegExp) => assert.throws(() => readRecording(text), (error: unknown) => error instanceof RecordingError && pattern.test(error.message));
    refuses('', /not a Tandem recording/);
    refuses('hello\nworld\n', /not a Tandem recording/);
    refuses('{"jsonrpc":"2.0","id":0,"method":"initialize"}\n', /not a Tandem recording/);
    refuses(`${JSON.stringify({ tandemRecording: 2 })}\n`, /format 2; this version of Tandem reads format 1/);
    refuses(`${JSON.stringify({ tandemRecording: 1, protocolVersion: 7 })}\n{"t":0,"dir":"in","raw":"x"}\n`, /protocol version 7/);
    refuses(`${JSON.stringify({ tandemRecording: 1 })}\n`, /holds no frames/);
    refuses(`${JSON.stringify({ tandemRecording: 1 })}\n{"t":0,"dir":"sideways","raw":"x"}\n`, /line 2: no direction/);
    refuses(`${JSON.stringify({ tandemRecording: 1 })}\n${' '.repeat(MAX_RECORDING_BYTES)}`, /up to 64 MB/);
  });

  test('a truncated or damaged recording loads what is valid and says what was skipped', async () => {
    const text = await writeRecording(header, sample().frames);
    const cut = text.slice(0, text.length - 20);
    const damaged = cut.replace('"dir":"in"', '"dir":"up"');
    const loaded = readRecording(damaged);
    assert.equal(loaded.frames.length, sample().frames.length - 2);
    assert.deepEqual(loaded.skipped.map((entry) => entry.line), [3, 8]);
    assert.match(describeSkipped(loaded.skipped) ?? '', /2 line\(s\) of the recording were skipped \(line 3: no direction.*line 8: not JSON/);
    assert.equal(describeSkipped([]), null);
  });

  test('frames earlier than the one before are skipped, so replay timing stays monotonic', () => {
    const lines = [JSON.stringify({ tandemRecording: 1 }), '{"t":5,"dir":"in","raw":"a"}', '{"t":2,"dir":"in","raw":"b"}', '{"t":9,"dir":"in","raw":"c"}'];
    const loaded = readRecording(lines.join('\r\n'));
    assert.deepEqual(loaded.frames.map((frame) => frame.text), ['a', 'c']);
    assert.match(loaded.skipped[0]?.reason ?? '', /earlier/);
  });
});
