import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { agentOutputStream } from '../../src/acp/agentOutput';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, { stream: true });
  return text + decoder.decode();
}

describe('agentOutputStream', () => {
  test('passes every byte on in order and ends with the output, more than its buffer holds included', async () => {
    const output = new PassThrough();
    const stream = agentOutputStream(output);
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index} ${'x'.repeat(100)}\n`);
    const reading = readAll(stream);
    for (const line of lines) output.write(line);
    output.end();
    assert.equal(await reading, lines.join(''));
  });

  test('an output that fails fails the stream; one closed before its end too', async () => {
    const failing = new PassThrough();
    const reading = readAll(agentOutputStream(failing));
    failing.destroy(new Error('EPIPE'));
    await assert.rejects(reading, /EPIPE/);
    const closed = new PassThrough();
    const closing = readAll(agentOutputStream(closed));
    closed.destroy();
    await assert.rejects(closing, /closed before its end/);
  });

  test('a cancelled stream lets go of the output and takes nothing more from it', async () => {
    const output = new PassThrough();
    const stream = agentOutputStream(output);
    const reader = stream.getReader();
    output.write('first\n');
    assert.equal(new TextDecoder().decode((await reader.read()).value), 'first\n');
    for (let index = 0; index < 1000; index++) output.write(`more ${index}\n`);
    await reader.cancel();
    assert.equal(output.destroyed, true);
  });
});
