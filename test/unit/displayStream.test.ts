import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DisplayStream } from '../../src/terminals/displayStream';
import { OutputCoalescer } from '../../src/terminals/outputCoalescer';
import { TerminalDisplays } from '../../src/terminals/terminalDisplays';

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

/** What a display shows and what the panel gets of `text`: appended whole, or through a DisplayStream in one batch. */
function seen(feed: (displays: TerminalDisplays) => void) {
  const displays = new TerminalDisplays(() => 0);
  const panel = new OutputCoalescer(64 * 1024);
  displays.onEvent((event) => {
    if (event.type === 'output') panel.push(event.terminalId, event.data, event.skipped);
  });
  displays.open({ terminalId: 't', origin: 'client', command: 'cat big', cwd: null, toolCallId: null, stop: null });
  feed(displays);
  const [sent] = panel.take();
  return { display: displays.output('t'), panel: sent?.data };
}

for (const [script, line] of [['ASCII', 'line of a build log, number '], ['CJK', '构建日志的一行，编号 '], ['emoji', '🌍🚀 mixed é and ascii ']] as const) {
  test(`a flood of 1 MB of ${script} in one batch decodes little more than the display keeps, and every view shows what it showed of the whole`, () => {
    const parts: string[] = [];
    for (let index = 0, size = 0; size < 1024 * 1024; index++) {
      parts.push(`${line}${index}\n`);
      size += Buffer.byteLength(parts[index] as string);
    }
    const lines = parts.join('');
    const bytes = Buffer.from(lines);
    const whole = seen((displays) => displays.append('t', lines));
    let decoded = 0;
    const batched = seen((displays) => {
      const stream = new DisplayStream((text, skipped) => {
        decoded += text.length;
        displays.append('t', text, skipped);
      });
      for (let at = 0; at < bytes.length; at += 64 * 1024) stream.push(bytes.subarray(at, at + 64 * 1024));
      stream.end();
    });
    assert.equal(batched.display, whole.display, 'the display keeps the same text');
    assert.equal(batched.panel, whole.panel, 'the panel is sent the same text');
    assert.ok(decoded > 256 * 1024 && decoded < 1.1 * 256 * 1024, `decoded ${decoded} characters of ${lines.length}`);
  });
}
