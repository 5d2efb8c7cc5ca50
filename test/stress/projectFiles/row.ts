/**
 * The `project-files` row: projects whose `.vscode/mcp.json` and agent files (every file kind
 * through which Claude Code, Gemini CLI, Qwen Code, OpenCode or Codex runs a program) would run
 * commands, opened with the scripted agent under each agent's id through the extension's consent
 * and reading code. A case fails for every MCP server that reached the agent without the user's
 * yes, and for every planted program of an agent that was started without a yes to that program's
 * definition (or the agent's own switch to ignore its project settings). Only a yes holds.
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
    // The count must see what it counts: without the consent steps, a server and a planted program get through.
    const named = namedProjectFileCases();
    for (const control of [named[0], named.find((test) => test.agentId !== 'scripted')]) {
      if (control && (await runProjectFileCase(control, { withoutConsent: true })).problems.length === 0) {
        tally.fail(`the check did not see what "${control.name}" runs without consent`);
      }
    }
    const random = new Random(SEED);
    const cases: ProjectFileCase[] = [...named, ...randomProjectFileCases(options.quick ? 10 : 200, () => random.next())];
    const totals = { allowed: 0, withheld: 0, questions: 0, programsAllowed: 0, programsIgnored: 0, notStarted: 0 };
    for (const test of cases) {
      if (stopped(options)) break;
      const outcome = await runProjectFileCase(test);
      totals.allowed += outcome.serversAllowed;
      totals.withheld += outcome.serversWithheld;
      totals.questions += outcome.questions;
      totals.programsAllowed += outcome.programsAllowed;
      totals.programsIgnored += outcome.programsIgnored;
      totals.notStarted += outcome.programsNotStarted;
      tally.record(outcome.problems.length === 0 ? undefined : outcome.problems.join('; '));
    }
    tally.note(`${cases.length} projects: ${totals.questions} questions, ${totals.allowed} project servers passed after a yes, ${totals.withheld} held back; planted agent programs: ${totals.programsAllowed} started after a yes, ${totals.programsIgnored} ignored by the agent's switch, ${totals.notStarted} kept from running (agent not started)`);
  },
};
