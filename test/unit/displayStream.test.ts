import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DisplayStream } from '../../src/terminals/displayStream';

function collecting(keepBytes?: number) {
  const shown: { text: string; skipped: number }[] = [];
  const stream = new DisplayStream((text, skipped) => shown.push({ text, skipped }), keepBytes);
  return { stream, shown, text: () => shown.map((part) => part.text).join(''), skipped: () => shown.reduce((sum, part) => sum + part.skipped, 0) };
}

test('output that fits is shown whole and in order, a character split across reads included', () => {
  const { stream, shown, text } = collecting();
  const bytes = Buffer.from('héllo 🌍 wörld\n');
  for (let at = 0; at < bytes.length; at += 3) stream.push(bytes.subarray(at, at + 3));
  stream.end();
  assert.equal(text(), 'héllo 🌍 wörld\n');
  assert.ok(shown.every((part) => part.skipped === 0));
});

test('a flood within one batch decodes only the newest bytes; shown plus skipped is all of it', () => {
  const { stream, text, skipped } = collecting(1024);
  const lines = Array.from({ length: 2000 }, (_, index) => `line ${index}\n`).join('');
  const bytes = Buffer.from(lines);
  for (let at = 0; at < bytes.length; at += 100) stream.push(bytes.subarray(at, at + 100));
  stream.end();
  assert.ok(text().endsWith('line 1999\n'));
  assert.ok(text().length <= 1024 + 100, `at most the budget and one read is decoded (${text().length})`);
  assert.ok(skipped() > 0);
  assert.equal(text().length + skipped(), lines.length, 'ASCII: every character is either shown or counted');
});

test('a drop that cuts a character in two skips the rest of it instead of showing a broken one', () => {
  const { stream, text } = collecting(8);
  const bytes = Buffer.from('€'.repeat(40));
  for (let at = 0; at < bytes.length; at += 5) stream.push(bytes.subarray(at, at + 5));
  stream.end();
  assert.ok(text().length > 0);
  assert.ok(!text().includes('\uFFFD'), JSON.stringify(text()));
  assert.ok(/^€+$/.test(text()));
});
