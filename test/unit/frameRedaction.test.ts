import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FrameRedactor, redactFrames } from '../../src/redaction/frameRedaction';
import type { Frame } from '../../src/wire/frame';
import { REDACTED } from '../../src/redaction/secrets';
import { generated } from '../support/secretFormats';

let at = 1_000;
const piece = (text: string, sessionUpdate = 'agent_message_chunk'): Frame => ({
  at: at++,
  direction: 'in',
  text: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate, content: { type: 'text', text } } } }),
});
const answer = (id: number): Frame => ({ at: at++, direction: 'out', text: JSON.stringify({ jsonrpc: '2.0', id, result: {} }) });
const update = (fields: Record<string, unknown>): Frame => ({ at: at++, direction: 'in', text: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', ...fields } } }) });
const terminalOutput = (terminalId: string, data: string) => update({ toolCallId: terminalId, _meta: { terminal_output: { terminal_id: terminalId, data } } });
const toolText = (toolCallId: string, text: string) => update({ toolCallId, content: [{ type: 'content', content: { type: 'text', text } }] });
const askOutput = (id: number): Frame => ({ at: at++, direction: 'in', text: JSON.stringify({ jsonrpc: '2.0', id, method: 'terminal/output', params: { sessionId: 's1', terminalId: 't1' } }) });
const outputAnswer = (id: number, output: string, truncated = false): Frame => ({ at: at++, direction: 'out', text: JSON.stringify({ jsonrpc: '2.0', id, result: { output, truncated } }) });
const pieceText = (frame: Frame) => (JSON.parse(frame.text) as { params: { update: { content: { text: string } } } }).params.update.content.text;

describe('FrameRedactor', () => {
  test('a piece that ends inside a word waits for the next; one that ends a word passes at once', () => {
    const redactor = new FrameRedactor();
    assert.deepEqual(redactor.push(piece('Hello ')).map(pieceText), ['Hello ']);
    assert.deepEqual(redactor.push(piece('wor')), []);
    assert.ok(redactor.holding);
    assert.deepEqual(redactor.push(piece('ld. ')).map(pieceText), ['wor', 'ld. ']);
    assert.ok(!redactor.holding);
  });

  test('frames come out in the order they went in: another frame releases what was held first', () => {
    const redactor = new FrameRedactor();
    const first = piece('still typ');
    assert.deepEqual(redactor.push(first), []);
    const released = redactor.push(answer(4));
    assert.deepEqual(released.map((frame) => frame.at), [first.at, first.at + 1]);
  });

  test('a credential split at every position between two pieces shows no part of itself', () => {
    const token = `github_pat_11${generated(7, 20)}_${generated(8, 59)}`;
    const text = `Use ${token} to push.`;
    for (let cut = 5; cut < 4 + token.length; cut++) {
      const shown = redactFrames([piece(text.slice(0, cut)), piece(text.slice(cut))]).map(pieceText);
      const joined = shown.join('|');
      for (let start = 0; start + 6 <= token.length; start++) assert.ok(!joined.includes(token.slice(start, start + 6)), `cut ${cut}: ${joined}`);
      assert.ok(shown[0]?.startsWith('Use ') && shown[1]?.endsWith(' to push.'), joined);
    }
  });

  test('a stream that stops inside a credential: what could begin one is masked when released as stale', () => {
    const redactor = new FrameRedactor();
    const first = piece('the key is ghp_ab');
    assert.deepEqual(redactor.push(first), []);
    assert.deepEqual(redactor.releaseStale(first.at - 1), [], 'not stale yet');
    assert.deepEqual(redactor.releaseStale(first.at).map(pieceText), [`the key is ${REDACTED}`]);
    assert.deepEqual(redactor.push(piece(`${generated(9, 34)} ok. `)).map(pieceText), [`${REDACTED} ok. `]);
  });

  test('streams are told apart: a thought does not continue a message', () => {
    const redactor = new FrameRedactor();
    redactor.push(piece('password'));
    const shown = redactor.push(piece('=hunter2 ', 'agent_thought_chunk')).map(pieceText);
    assert.deepEqual(shown, ['password', '=hunter2 ']);
  });

  test('a word that never ends is released within a bound', () => {
    const redactor = new FrameRedactor();
    let released = 0;
    for (let index = 0; index < 100; index++) released += redactor.push(piece('x'.repeat(1024))).length;
    assert.ok(released >= 90, `${released} of 100 released`);
  });

  test('a frame nested too deep to walk is still shown, scrubbed as text', () => {
    const deep = `${'['.repeat(100_000)}"sk-abcdefghijklmnopqrstuv"${']'.repeat(100_000)}`;
    const [shown] = redactFrames([{ at: 1, direction: 'in', text: deep }]);
    assert.ok(shown && !shown.text.includes('sk-abcdefghijklmnopqrstuv') && shown.text.includes(REDACTED));
  });

  test('ids that are not strings (an array nested 20,000 deep) name no stream and crash nothing', () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const hostile = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${deep},"update":{"sessionUpdate":${deep},"toolCallId":${deep},"content":[{"type":"content","content":{"type":"text","text":"sk-abcdefghijklmnopqrstuv"}}]}}}`;
    const shown = redactFrames([{ at: 1, direction: 'in', text: hostile }, piece('after')]);
    assert.equal(shown.length, 2);
    assert.ok(shown.every((frame) => !frame.text.includes('sk-abcdefghijklmnopqrstuv')));
  });

  describe('streams other than message chunks: a token cut between two pieces shows no part of itself', () => {
    const token = `ghp_${generated(11, 36)}`;
    const text = `export GH=${token} done`;
    const noPart = (shown: string, label: string) => {
      for (let start = 0; start + 6 <= token.length; start++) assert.ok(!shown.includes(token.slice(start, start + 6)), `${label}: ${shown}`);
    };
    const cuts = Array.from({ length: token.length - 1 }, (_, index) => 'export GH='.length + index + 1);
    const cases: ReadonlyArray<readonly [string, (first: string, second: string) => Frame[]]> = [
      ['terminal_output deltas', (first, second) => [terminalOutput('toolu_1', first), terminalOutput('toolu_1', second)]],
      ['tool_call_update contents', (first, second) => [toolText('call-1', first), toolText('call-1', second)]],
      ['terminal/output answers, the start dropped at the limit', (first, second) => [askOutput(1), outputAnswer(1, first), askOutput(2), outputAnswer(2, second, true)]],
      ['terminal/output answers, all the output so far', (first, second) => [askOutput(3), outputAnswer(3, first), askOutput(4), outputAnswer(4, first + second)]],
    ];
    for (const [name, frames] of cases) {
      test(name, () => {
        for (const cut of cuts) {
          const sent = frames(text.slice(0, cut), text.slice(cut));
          noPart(redactFrames(sent).map((frame) => frame.text).join('\n'), `export, cut ${cut}`);
          const redactor = new FrameRedactor();
          const stale = sent.flatMap((frame) => [...redactor.push(frame), ...redactor.releaseStale(Number.POSITIVE_INFINITY)]);
          noPart(stale.map((frame) => frame.text).join('\n'), `released between the pieces, cut ${cut}`);
        }
      });
    }

    test('each terminal is its own stream: one does not continue another', () => {
      const shown = redactFrames([terminalOutput('toolu_1', 'password'), terminalOutput('toolu_2', '=hunter2 ')]).map((frame) => frame.text).join('\n');
      assert.match(shown, /"data":"password"/);
      assert.match(shown, /"data":"=hunter2 "/);
    });
  });
});

