import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settledBoundary } from '../../webview/streamingMarkdown';

describe('streaming markdown boundaries', () => {
  test('commits up to the last paragraph break', () => {
    const text = 'First paragraph.\n\nSecond paragraph.\n\nThird, still stre';
    assert.equal(text.slice(0, settledBoundary(text, 0)), 'First paragraph.\n\nSecond paragraph.\n\n');
  });

  test('never commits inside an open code fence', () => {
    const text = 'Intro.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n';
    assert.equal(text.slice(0, settledBoundary(text, 0)), 'Intro.\n\n');
    const closed = `${text}\`\`\`\n\nAfter.`;
    assert.equal(closed.slice(0, settledBoundary(closed, 0)), closed.slice(0, closed.indexOf('After.')));
  });

  test('scans only from the last commit', () => {
    const text = 'a\n\nb\n\nc';
    const first = settledBoundary(text, 0);
    assert.equal(settledBoundary(text, first), first);
  });
  test('with a limit, stops at the last break before it, or the first break after it when there is none before', () => {
    const text = 'aaaa\n\nbbbb\n\ncccc\n\ndddd';
    assert.equal(text.slice(0, settledBoundary(text, 0, 8)), 'aaaa\n\n');
    assert.equal(text.slice(0, settledBoundary(text, 0, 13)), 'aaaa\n\nbbbb\n\n');
    assert.equal(text.slice(0, settledBoundary(text, 0, 0)), 'aaaa\n\n', 'the first break, when the limit comes before any');
    assert.equal(settledBoundary(text, 0, 1_000), settledBoundary(text, 0), 'a limit past the end changes nothing');
    const fenced = 'intro\n\n```\nx\n\ny\n```\n\nafter\n\nend';
    assert.equal(fenced.slice(0, settledBoundary(fenced, 0, 9)), 'intro\n\n', 'never inside a fence');
    assert.equal(fenced.slice(0, settledBoundary(fenced, 7, 7)), fenced.slice(0, fenced.indexOf('after')));
  });
});
