import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../src/util/emitter';

test('an event goes to the listeners there were when it was fired, in the order they came', () => {
  const emitter = new Emitter<number>();
  const heard: string[] = [];
  let late: { dispose(): void } | null = null;
  const second = emitter.event((n) => heard.push(`second ${n}`));
  emitter.event((n) => {
    heard.push(`first ${n}`);
    second.dispose();
    late ??= emitter.event((m) => heard.push(`late ${m}`));
  });
  emitter.fire(1);
  emitter.fire(2);
  // "second" was subscribed when 1 was fired, so it hears 1 although it left during that fire;
  // "late" came during the fire of 1, so it hears only 2.
  assert.deepEqual(heard, ['second 1', 'first 1', 'first 2', 'late 2']);
});

test('one subscription ends once; the same function subscribed twice hears twice until each ends', () => {
  const emitter = new Emitter<string>();
  const heard: string[] = [];
  const listener = (text: string) => heard.push(text);
  const a = emitter.event(listener);
  const b = emitter.event(listener);
  emitter.fire('both');
  a.dispose();
  a.dispose();
  emitter.fire('one');
  b.dispose();
  emitter.fire('none');
  assert.deepEqual(heard, ['both', 'both', 'one']);
});

test('after dispose nothing is heard', () => {
  const emitter = new Emitter<void>();
  let heard = 0;
  emitter.event(() => heard++);
  emitter.dispose();
  emitter.fire();
  assert.equal(heard, 0);
});
