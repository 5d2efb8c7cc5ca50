/**
 * The fast path parses the text the frame tee decoded, not a decoding of its own: lines whose
 * bytes decode differently line by line (as the SDK decodes) than in one stream (as the tee
 * does) must still reach the session exactly as through the bare SDK client.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import { AcpConnection } from '../../src/acp/acpConnection';
import { waitFor } from '../support/waitFor';

const updateLine = (text: string) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const END = Buffer.from(`${updateLine('end')}\n`);

/** A byte order mark before a later line, bad bytes inside a text, a character cut by the read boundary. */
function agentBytes(): Buffer[] {
  const bad = Buffer.from(updateLine('bad ## bytes'));
  const at = bad.indexOf('##');
  bad[at] = 0xff;
  bad[at + 1] = 0xc3;
  const split = Buffer.from(`${updateLine('split é here')}\n`);
  const cut = split.indexOf(0xc3) + 1;
  return [Buffer.concat([BOM, Buffer.from(`${updateLine('first')}\n`), BOM, Buffer.from(`${updateLine('second')}\n`), bad, Buffer.from('\n'), split.subarray(0, cut)]), Buffer.concat([split.subarray(cut), END])];
}

async function delivered(run: (stdout: PassThrough, texts: string[]) => { close(): void }): Promise<string[]> {
  const stdout = new PassThrough();
  const texts: string[] = [];
  const connection = run(stdout, texts);
  try {
    for (const chunk of agentBytes()) stdout.write(chunk);
    await waitFor(() => texts.includes('end'), `the end line (so far ${JSON.stringify(texts)})`);
    return texts;
  } finally {
    connection.close();
    stdout.destroy();
  }
}

const textOf = (params: acp.SessionNotification) => (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text' ? params.update.content.text : params.update.sessionUpdate);

test('lines with a byte order mark, bad bytes or a character split between reads reach the session as through the bare SDK', async () => {
  const sdk = await delivered((stdout, texts) => acp.client({ name: 'sdk-alone' })
    .onNotification(acp.methods.client.session.update, (ctx) => {
      texts.push(textOf(ctx.params));
    })
    .connect(acp.ndJsonStream(new WritableStream<Uint8Array>(), new ReadableStream<Uint8Array>({
      start(controller) {
        // Left open: the SDK ends the connection when its input ends.
        stdout.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      },
    }))));
  const frames: string[] = [];
  const tandem = await delivered((stdout, texts) => new AcpConnection({ stdout, stdin: new Writable({ write: (_chunk, _encoding, callback) => callback() }) }, (frame) => frames.push(frame.text), {
    sessionUpdate: (notification) => texts.push(textOf(notification)),
    requestPermission: () => Promise.reject(new Error('not in this test')),
    fs: null,
    terminals: null,
  }));
  assert.deepEqual(tandem, sdk);
  assert.deepEqual(sdk, ['first', 'second', 'bad \ufffd\ufffd bytes', 'split é here', 'end']);
  assert.equal(frames.length, 5, 'the tee saw every line');
  assert.ok(frames[1]?.startsWith('\ufeff'), 'the tee keeps the mark of a later line as sent');
});
