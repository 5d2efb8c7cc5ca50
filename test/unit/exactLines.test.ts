/**
 * What a VS Code buffer can hold exactly, and a rewrite that keeps the file's own line endings
 * on every line whose text did not change (mixed CRLF/LF, lone CR, no final newline, BOM).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bufferHolds, keepLineEndings, oneLineEnding, sameLines } from '../../src/files/exactLines';
import { Random } from '../support/reviewStressCases';

/** What VS Code's buffer shows of a file: every line ending made the same. */
const normalised = (text: string, eol: '\n' | '\r\n') => text.replace(/\r\n|\r|\n/g, eol);

describe('keepLineEndings', () => {
  test('a rewrite normalised to CRLF changes only the edited line of a mixed file', () => {
    const file = 'one\r\ntwo\nthree\r\nfour\n';
    const target = 'one\r\nTWO\r\nthree\r\nfour\r\n';
    assert.equal(keepLineEndings(file, target), 'one\r\nTWO\r\nthree\r\nfour\n');
  });

  test('a lone CR stays where the line around it is unchanged; new lines take the target\'s endings', () => {
    const file = 'a\nb\rc\nd\n';
    assert.equal(keepLineEndings(file, 'a\nb\nc\nnew\nd\n'), 'a\nb\rc\nnew\nd\n');
    assert.equal(keepLineEndings(file, 'a\nc\nd\n'), 'a\nc\nd\n', 'a removed line takes its ending with it');
  });

  test('a final newline added or removed is the target\'s; a BOM counts as text', () => {
    assert.equal(keepLineEndings('x\r\ny', 'x\ny\n'), 'x\r\ny\n');
    assert.equal(keepLineEndings('x\r\ny\r\n', 'x\ny'), 'x\r\ny');
    assert.equal(keepLineEndings('\uFEFFx\r\ny\n', '\uFEFFx\r\ny\r\nz\r\n'), '\uFEFFx\r\ny\nz\r\n');
    assert.equal(keepLineEndings('x\r\n', '\uFEFFx\n'), '\uFEFFx\n', 'a BOM added changes the first line');
  });

  test('random files and edits: the result has the target\'s lines, and the file\'s bytes wherever a line is unchanged', () => {
    const random = new Random(12);
    const endings = ['\n', '\r\n', '\r'];
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + random.int(12) }, (_, i) => `${i % 4 === 0 ? '' : `line ${random.int(5)}`}${random.pick(endings)}`);
      if (random.chance(0.3)) lines.push('last without newline');
      const file = lines.join('');
      const eol = random.pick(['\n', '\r\n'] as const);
      assert.equal(keepLineEndings(file, normalised(file, eol)), file, 'a buffer\'s view of the file maps back to the file');
      const edited = [...lines];
      edited.splice(random.int(edited.length + 1), random.int(3), ...Array.from({ length: random.int(3) }, () => `edited ${random.int(9)}\n`));
      const target = normalised(edited.join(''), eol);
      const result = keepLineEndings(file, target);
      assert.ok(sameLines(result, target), JSON.stringify({ file, target, result }));
      assert.equal(keepLineEndings(file, result), result);
    }
  });
});

describe('what a buffer holds exactly', () => {
  test('one line ending throughout, or none', () => {
    assert.equal(oneLineEnding('a\nb\n'), '\n');
    assert.equal(oneLineEnding('a\r\nb'), '\r\n');
    assert.equal(oneLineEnding('no break'), 'none');
    assert.equal(oneLineEnding(''), 'none');
    assert.equal(oneLineEnding('a\r\nb\n'), null);
    assert.equal(oneLineEnding('a\rb'), null);
    assert.equal(oneLineEnding('a\r\nb\rc\r\n'), null);
  });

  test('the buffer\'s line ending, and a BOM exactly when it saves one', () => {
    const lf = { eol: '\n' as const, encoding: 'utf8' };
    const crlfBom = { eol: '\r\n' as const, encoding: 'utf8bom' };
    assert.equal(bufferHolds(lf, 'a\nb\n'), true);
    assert.equal(bufferHolds(lf, 'one line'), true);
    assert.equal(bufferHolds(lf, 'a\r\nb\r\n'), false);
    assert.equal(bufferHolds(lf, '\uFEFFa\n'), false);
    assert.equal(bufferHolds(crlfBom, '\uFEFFa\r\nb'), true);
    assert.equal(bufferHolds(crlfBom, 'a\r\nb'), false);
    assert.equal(bufferHolds(crlfBom, '\uFEFFa\r\nb\n'), false);
    assert.equal(bufferHolds({ eol: '\n', encoding: 'iso88591' }, 'caf\u00e9\n'), true);
  });

  test('sameLines ignores only the line endings', () => {
    assert.ok(sameLines('a\r\nb\rc\n', 'a\nb\nc\n'));
    assert.ok(!sameLines('a\nb', 'a\nb\n'));
    assert.ok(!sameLines('a\nb\n', 'a\nB\n'));
  });
});
