import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pathEscapeCases, runPathEscapeCases } from '../support/pathEscapeCases';

describe('escape attempts through fs/* (the stress suite\'s paths row, at unit size)', () => {
  test('none is served or written outside without the user\'s yes, none stalls, and racing reads serve only the workspace', async () => {
    const report = await runPathEscapeCases({ racingReads: 200 });
    const failures = [...report.escaped, ...report.stalled].map((outcome) => `${outcome.name}: ${outcome.verdict}, ${outcome.detail}`);
    assert.deepEqual(failures, []);
    assert.ok(pathEscapeCases.length >= 50, `${pathEscapeCases.length} cases`);
    assert.equal(report.tried, pathEscapeCases.length + 200);
    assert.equal(report.racing.servedOutside, 0);
    assert.equal(report.racing.servedInside + report.racing.refused, 200);
    assert.ok(report.outcomes.some((outcome) => outcome.asked), 'the user is asked about plain outside paths');
  });
});
