import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { namedProjectFileCases, randomProjectFileCases, runProjectFileCase, type ProjectFileOutcome } from '../support/projectFileCases';

describe('project files: no command reaches the agent without a yes', () => {
  test('every named case holds', async () => {
    const outcomes: ProjectFileOutcome[] = [];
    for (const projectCase of namedProjectFileCases()) outcomes.push(await runProjectFileCase(projectCase));
    assert.deepEqual(outcomes.flatMap((outcome) => outcome.problems), []);
    const total = (key: 'serversAllowed' | 'serversWithheld' | 'programsAllowed' | 'programsIgnored' | 'programsNotStarted') => outcomes.reduce((sum, outcome) => sum + outcome[key], 0);
    assert.ok(total('serversAllowed') > 0, 'allowed servers do reach the agent');
    assert.ok(total('serversWithheld') > 100, 'the rest are held back');
    // 17 file kinds: each allowed (then kept), each not started unanswered and after a pull, and each
    // started with its agent's switch where it has one (13 kinds of Claude Code, Gemini CLI, OpenCode).
    assert.deepEqual([total('programsAllowed'), total('programsIgnored'), total('programsNotStarted')], [34, 13, 38]);
  });

  test('random cases hold', async () => {
    let state = 7;
    const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (const projectCase of randomProjectFileCases(12, next)) assert.deepEqual((await runProjectFileCase(projectCase)).problems, [], projectCase.name);
  });

  test('the runner counts servers passed without a yes (as before consent existed)', async () => {
    const unanswered = namedProjectFileCases().find((projectCase) => projectCase.name === 'many servers');
    assert.ok(unanswered);
    const outcome = await runProjectFileCase(unanswered, { withoutConsent: true });
    assert.equal(outcome.problems.length, 100);
    assert.match(outcome.problems[0] ?? '', /MCP server "s0" reached the agent without a yes/);
  });

  test('the runner counts planted programs of an agent started without a yes (as before Tandem asked)', async () => {
    const programCases = namedProjectFileCases().filter((projectCase) => projectCase.name.endsWith(': not answered'));
    assert.equal(programCases.length, 17);
    for (const projectCase of programCases) {
      const outcome = await runProjectFileCase(projectCase, { withoutConsent: true });
      assert.equal(outcome.problems.length, 1, projectCase.name);
      assert.match(outcome.problems[0] ?? '', /could run without a yes$/);
    }
  });
});
