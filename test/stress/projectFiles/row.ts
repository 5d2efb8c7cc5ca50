/**
 * The `project-files` row: projects whose `.vscode/mcp.json` and agent hook settings would run
 * commands, opened with the scripted agent through the extension's consent and reading code. A
 * case fails for every MCP server that reached the agent without the user's yes and every hook
 * the agent would run that no notice named before the session opened.
 */
import { namedProjectFileCases, randomProjectFileCases, runProjectFileCase, type ProjectFileCase } from '../../support/projectFileCases';
import { Random } from '../../support/reviewStressCases';
import { CASES, stopped, type StressRow } from '../row';

const SEED = 1606;

export const projectFilesRow: StressRow = {
  name: 'project-files',
  budgetSeconds: { quick: 30, full: 120 },
  minimums: { quick: { [CASES]: 20 }, full: { [CASES]: 200 } },
  async run(options, tally) {
    // The count must see what it counts: without the consent step, the first case's server gets through.
    const [control] = namedProjectFileCases();
    if (control && (await runProjectFileCase(control, { withoutConsent: true })).problems.length === 0) {
      tally.fail(`the check did not see the server of "${control.name}" passed without consent`);
    }
    const random = new Random(SEED);
    const cases: ProjectFileCase[] = [...namedProjectFileCases(), ...randomProjectFileCases(options.quick ? 10 : 200, () => random.next())];
    const totals = { allowed: 0, withheld: 0, questions: 0, hooks: 0 };
    for (const test of cases) {
      if (stopped(options)) break;
      const outcome = await runProjectFileCase(test);
      totals.allowed += outcome.serversAllowed;
      totals.withheld += outcome.serversWithheld;
      totals.questions += outcome.questions;
      totals.hooks += outcome.hooksAnnounced;
      tally.record(outcome.problems.length === 0 ? undefined : outcome.problems.join('; '));
    }
    tally.note(`${cases.length} projects: ${totals.questions} questions, ${totals.allowed} project servers passed after a yes, ${totals.withheld} held back, ${totals.hooks} hooks named before the session opened`);
  },
};
