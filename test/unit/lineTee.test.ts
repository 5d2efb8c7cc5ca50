import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineTee } from '../../src/acp/frames';
import { type Frame } from '../../src/wire/frame';

/** Pushes `chunks` through a tee; returns the frames it reported and the bytes it passed on. */
async function tee(chunks: Uint8Array[]): Promise<{ frames: string[]; passed: Uint8Array }> {
  const frames: Frame[] = [];
  const stream = lineTee('in', (frame) => frames.push(frame));
  const received: Uint8Array[] = [];
  const reading = (async () => {
    const reader = stream.readable.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) received.push(next.value);
  })();
  const writer = stream.writable.getWriter();
  for (const chunk of chunks) await writer.write(chunk);
  await writer.close();
  await reading;
  return { frames: frames.map((frame) => frame.text), passed: Buffer.concat(received) };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** `data` cut into pieces of `size` bytes, as a pipe delivers it. */
function pieces(data: Uint8Array, size: number): Uint8Array[] {
  const result: Uint8Array[] = [];
  for (let offset = 0; offset < data.length; offset += size) result.push(data.subarray(offset, offset + size));
  return result;
}

describe('lineTee', () => {
  test('reports each line once, whatever the chunks, and passes every byte on unchanged', async () => {
    const text = '{"a":1}\n\n  \n{"b":"é€😀"}\r\n{"c":3}\nlast without newline';
    const data = bytes(text);
    for (const size of [1, 2, 3, 7, data.length]) {
      const { frames, passed } = await tee(pieces(data, size));
      assert.deepEqual(frames, ['{"a":1}', '{"b":"é€😀"}', '{"c":3}', 'last without newline'], `chunks of ${size} bytes`);
      assert.deepEqual(passed, Buffer.from(data));
    }
  });

  test('lines of 2, 8 and 16 MB in pipe-sized chunks arrive whole, between their neighbours', async () => {
    for (const megabytes of [2, 8, 16]) {
      const huge = `{"text":"${'x'.repeat(megabytes * 1024 * 1024 - 100)}é"}`;
      const { frames } = await tee(pieces(bytes(`{"before":1}\n${huge}\n{"after":1}\n`), 64 * 1024));
      assert.equal(frames.length, 3);
      assert.equal(frames[0], '{"before":1}');
      assert.equal(frames[1]?.length, huge.length);
      assert.ok(frames[1] === huge, `the ${megabytes} MB line is reported as sent`);
      assert.equal(frames[2], '{"after":1}');
    }
  });

  test('a line is reported before its bytes are passed on', async () => {
    const order: string[] = [];
    const stream = lineTee('out', (frame) => order.push(`frame ${frame.text}`));
    const passedOn = stream.readable.pipeTo(new WritableStream({ write: (chunk) => { order.push(`bytes ${new TextDecoder().decode(chunk).trim()}`); } }));
    const writer = stream.writable.getWriter();
    await writer.write(bytes('{"id":1}\n'));
    await writer.close();
    await passedOn;
    assert.deepEqual(order, ['frame {"id":1}', 'bytes {"id":1}']);
  });

  test('a line that ends in the same chunk the next one starts in is split there', async () => {
    const { frames } = await tee([bytes('{"a":'), bytes('1}\n{"b":'), bytes('2}\n{"c"'), bytes(':3}')]);
    assert.deepEqual(frames, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});
