// Files in an encoding other than UTF-8 through fs/*: read and written in their own encoding as
// the editor reads them (files.encoding, its guess, a UTF-16 BOM), every other byte kept, undo
// byte for byte; what is really binary, or not text in any encoding the editor would use, refused.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diskReview } from '../support/reviewHarness';
import { beforeEachTest, tempWorkspace } from '../support/sessionBuilders';

let workspace: string;
let review: ReturnType<typeof diskReview>;

beforeEachTest((t) => {
  workspace = tempWorkspace(t, 'tandem-encodings-');
  review = diskReview(workspace);
  t.after(() => review.fs.dispose());
});

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const read = (path: string) => review.fs.readTextFile({ sessionId: 's', path });
const write = (path: string, content: string) => review.fs.writeTextFile({ sessionId: 's', path, content });

function file(name: string, bytes: Buffer): string {
  const path = join(workspace, name);
  writeFileSync(path, bytes);
  return path;
}

describe('a Latin-1 file', () => {
  const original = latin1('caf\xe9 cr\xe8me\r\nna\xefve \xa9 \xff\r\nthird\r\n');

  test('with files.encoding iso88591: read as text, one line written, every other byte kept; undo gives back each byte', async () => {
    const path = file('legacy.txt', original);
    review.documents.codec.configured.set(path, 'iso88591');
    assert.deepEqual(await read(path), { content: 'café crème\r\nnaïve © ÿ\r\nthird\r\n' });
    await write(path, 'café crème\nnaïve © ÿ\nTHIRD é\n');
    assert.deepEqual(readFileSync(path), latin1('caf\xe9 cr\xe8me\r\nna\xefve \xa9 \xff\r\nTHIRD \xe9\r\n'));
    assert.equal(review.ledger.files().length, 1, 'the write is pending review');
    const failures = await review.writer.undo(review.ledger.undoAll());
    assert.deepEqual(failures, []);
    assert.deepEqual(readFileSync(path), original);
  });

  test('with files.autoGuessEncoding: the editor\'s guess is used when UTF-8 does not hold the bytes', async () => {
    const path = file('guessed.txt', original);
    review.documents.codec.guesses.set(path, 'iso88591');
    assert.deepEqual(await read(path), { content: 'café crème\r\nnaïve © ÿ\r\nthird\r\n' });
  });

  test('with the editor reading it as UTF-8: refused, with the setting that would let it be edited; nothing written', async () => {
    const path = file('utf8-setting.txt', original);
    await assert.rejects(read(path), /not text in utf8, the encoding the editor reads it in: set files\.encoding/);
    await assert.rejects(write(path, 'new\n'), /not text in utf8/);
    assert.deepEqual(readFileSync(path), original);
  });

  test('a character Latin-1 cannot hold is refused, not written as "?"', async () => {
    const path = file('narrow.txt', original);
    review.documents.codec.configured.set(path, 'iso88591');
    await read(path);
    await assert.rejects(write(path, 'café ✓\r\n'), /saved in iso88591, which cannot hold every character of the new text, so nothing was written/);
    assert.deepEqual(readFileSync(path), original);
    assert.equal(review.ledger.files().length, 0);
  });
});

test('a UTF-16 LE file with its BOM is text without any setting; a write keeps the BOM and the encoding', async () => {
  const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const path = file('wide.txt', utf16('héllo\r\nwörld\r\n'));
  assert.deepEqual(await read(path), { content: 'héllo\r\nwörld\r\n' });
  await write(path, 'héllo\nWÖRLD\n');
  assert.deepEqual(readFileSync(path), utf16('héllo\r\nWÖRLD\r\n'));
  await review.writer.undo(review.ledger.undoAll());
  assert.deepEqual(readFileSync(path), utf16('héllo\r\nwörld\r\n'));
});

test('a binary file is refused even where every byte would decode (files.encoding iso88591)', async () => {
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
  const path = file('image.png', bytes);
  review.documents.codec.configured.set(path, 'iso88591');
  await assert.rejects(read(path), /is a binary file, not text/);
  await assert.rejects(write(path, 'text now\n'), /is a binary file, not text/);
  assert.deepEqual(readFileSync(path), bytes);
});
