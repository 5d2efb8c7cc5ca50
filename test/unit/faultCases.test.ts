import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FAULT_CASES, KILL_POINTS, runFrameFaults, runKillFaults, type AgentChange } from '../support/faultCases';
import { adversarialFrames, ENDING_KINDS, isEnding, type FrameKind } from '../support/faultFrames';
import { Random } from '../support/reviewStressCases';

const render = (line: string | Uint8Array) => (typeof line === 'string' ? line : Buffer.from(line).toString('latin1'));

describe('fault cases', () => {
  test('the frame corpus has every kind, ends a connection once in a while, and is the same for the same seed', () => {
    const random = new Random(5);
    const kinds = new Map<FrameKind, number>();
    let count = 0;
    for (const frame of adversarialFrames(FAULT_CASES.frames.full, () => random.next(), 1000)) {
      count++;
      kinds.set(frame.kind, (kinds.get(frame.kind) ?? 0) + 1);
    }
    assert.equal(count, 100_000);
    assert.deepEqual([...kinds.keys()].filter((kind) => !isEnding(kind)).sort(), ['badJson', 'binary', 'deepNested', 'hostileUpdate', 'notAnObject', 'unknownId', 'unknownMethod', 'wrongId', 'wrongTypes']);
    for (const kind of ENDING_KINDS) assert.ok((kinds.get(kind) ?? 0) >= 30, `${kind} frames`);
    const lines = (seed: number) => {
      const own = new Random(seed);
      return [...adversarialFrames(300, () => own.next())].map((frame) => render(frame.line('s-1')));
    };
    assert.deepEqual(lines(9), lines(9));
    assert.notDeepEqual(lines(9), lines(10));
    assert.ok(lines(9).every((line) => !line.includes('\n')), 'a frame is one line');
  });

  test('a small frames run holds: nothing crashes or hangs and every batch is followed by a working prompt', async () => {
    const result = await runFrameFaults({ cases: 1200, seed: 3 });
    assert.deepEqual(result.details, []);
    assert.equal(result.tried, 1200);
    assert.equal(result.failures, 0);
  });

  test('a small kills run holds at every kill point and hands back what the agents changed', async () => {
    const changes: AgentChange[] = [];
    const cases: number[] = [];
    const result = await runKillFaults({ cases: KILL_POINTS.length * 2, seed: 4, onCase: () => cases.push(1), onChanges: (_kill, _workspace, list) => changes.push(...list) });
    assert.deepEqual(result.details, []);
    assert.equal(result.tried, KILL_POINTS.length * 2);
    assert.equal(cases.length, result.tried);
    assert.ok(changes.length > 0, 'some agents changed files before they died');
    assert.ok(changes.every((change) => change.after !== change.before));
  });
});
