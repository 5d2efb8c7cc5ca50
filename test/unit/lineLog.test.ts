import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineLog } from '../../src/util/lineLog';

describe('LineLog', () => {
  test('lines split across chunks arrive whole, CRLF endings without the CR, the unfinished one at the end', () => {
    const log = new LineLog();
    const heard: string[] = [];
    log.onLine((line) => heard.push(line));
    log.write('first\r\nsec');
    log.write('ond\nthi');
    assert.deepEqual(heard, ['first', 'second']);
    log.end();
    assert.deepEqual(log.tail(), ['first', 'second', 'thi']);
    assert.deepEqual(log.tail(1), ['thi']);
  });

  test('a stream without newlines still becomes bounded lines', () => {
    const log = new LineLog();
    log.write('x'.repeat(40 * 1024));
    assert.equal(log.tail().length, 1);
    log.end();
    assert.equal(log.tail().length, 1, 'nothing was left waiting');
  });
});
