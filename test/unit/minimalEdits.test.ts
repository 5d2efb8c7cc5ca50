import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEdits, minimalEdits } from '../../src/files/minimalEdits';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('minimal edits', () => {
  test('only changed lines are replaced', () => {
    const edits = minimalEdits('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    assert.deepEqual(edits, [{ start: 2, end: 4, text: 'B\n' }, { start: 8, end: 8, text: 'e\n' }]);
  });

  test('random rewrites of texts with CRLF, BOM and no final newline apply exactly', () => {
    const next = random(42);
    const pool = ['alpha\n', 'beta\r\n', 'γάμμα\n', '\uFEFFbom\n', 'tail', '\n', 'x\r\n'];
    for (let round = 0; round < 300; round++) {
      const make = () => Array.from({ length: Math.floor(next() * 12) }, () => pool[Math.floor(next() * pool.length)]).join('');
      const before = make();
      const after = next() < 0.5 ? make() : before.replace(/a/g, 'A');
      assert.equal(applyEdits(before, minimalEdits(before, after)), after, JSON.stringify({ before, after }));
    }
  });
});
