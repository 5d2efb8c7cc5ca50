// Agents and the commands they run get the system's below-normal priority, their own and their
// session's scheduler group's, so the editor is served first when both want the CPU. Real
// processes: the scripted agent started as a program, a command tree it runs through terminal/*.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { after, describe, test } from 'node:test';
import type { SessionController } from '../../src/conversation/sessionController';
import { folderScope } from '../../src/workspace/workspaceScope';
import { TerminalService } from '../../src/terminals/terminalService';
import { runBelowEditor, type AgentPriority } from '../../src/util/processPriority';
import { schedulerGroupCheck, schedulingOf } from '../support/processGroups';
import { terminalPrompt } from '../support/scenarios/terminals';
import { tempWorkspace } from '../support/sessionBuilders';
import { PROCESS_TREE_SCRIPT, pidsIn, terminalSession } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

const BELOW_NORMAL = constants.priority.PRIORITY_BELOW_NORMAL;

const workspace = tempWorkspace({ after }, 'tandem-priority-');

/** A session whose agent is a process and whose terminal/* commands are real, both at `priority`. */
function sessionAt(priority: AgentPriority): SessionController {
  return terminalSession(workspace, {}, {
    agentPriority: () => priority,
    workspace: () => folderScope(workspace, {
      commands: (context) => new TerminalService({ cwd: context.cwd, roots: () => [context.cwd], displays: context.terminalDisplays, logger: context.logger, priority: () => priority }),
    }),
  });
}

/** Runs a command tree (the command, its child, a shell and the shell's child) in a turn; resolves the agent's pid and the tree's. */
async function agentAndTree(session: SessionController): Promise<{ agent: number; tree: number[]; turn: Promise<void> }> {
  const turn = session.prompt(terminalPrompt({ create: { command: process.execPath, args: ['-e', PROCESS_TREE_SCRIPT] }, steps: ['waitOutput:pids:', 'sleep:1500', 'kill', 'release'] }));
  const tree = await waitFor(() => {
    const [terminal] = session.terminalDisplays.snapshot();
    return terminal ? pidsIn(terminal.output) : undefined;
  }, 'the command tree pids', 15_000);
  assert.equal(tree.length, 4);
  const agent = session.agentPid;
  assert.ok(agent !== undefined, 'the agent is a process');
  return { agent, tree, turn };
}

const ownGroupNice = () => schedulingOf(process.pid).groupNice;

describe('agents run below the editor', () => {
  test('below the editor: the agent, the command it runs and everything that command starts have the below-normal nice, and their sessions\' scheduler groups too; the editor\'s group is untouched', async (t) => {
    const editorGroup = schedulingOf(process.pid);
    const session = sessionAt('belowEditor');
    t.after(() => session.dispose());
    const { agent, tree, turn } = await agentAndTree(session);
    const agentScheduling = schedulingOf(agent);
    assert.equal(agentScheduling.nice, BELOW_NORMAL, 'the agent');
    for (const pid of tree) assert.equal(schedulingOf(pid).nice, BELOW_NORMAL, `command process ${pid}`);
    await schedulerGroupCheck(t, 'their scheduler groups are their own and below normal', () => {
      assert.equal(agentScheduling.groupNice, BELOW_NORMAL, "the agent's scheduler group");
      assert.notEqual(agentScheduling.group, editorGroup.group, 'the agent has a group of its own');
      for (const pid of tree) assert.equal(schedulingOf(pid).groupNice, BELOW_NORMAL, `the scheduler group of command process ${pid}`);
    });
    assert.deepEqual(schedulingOf(process.pid), editorGroup, "the editor's own priority and group are as they were");
    await turn;
  });

  test('normal: the agent and its commands run at the priority of the editor that started them', async (t) => {
    const session = sessionAt('normal');
    t.after(() => session.dispose());
    const { agent, tree, turn } = await agentAndTree(session);
    const editor = schedulingOf(process.pid);
    for (const pid of [agent, ...tree]) assert.equal(schedulingOf(pid).nice, editor.nice, `process ${pid}`);
    await schedulerGroupCheck(t, 'their scheduler groups are at the normal nice', () => {
      for (const pid of [agent, ...tree]) assert.equal(schedulingOf(pid).groupNice, 0, `the scheduler group of process ${pid}`);
    });
    await turn;
  });

  test("a process that shares the editor's session gets only its own nice lowered, never the editor's scheduler group", async (t) => {
    const before = ownGroupNice();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    t.after(() => child.kill('SIGKILL'));
    await new Promise((resolve) => child.once('spawn', resolve));
    const done = await runBelowEditor(child.pid ?? 0);
    assert.equal(schedulingOf(child.pid ?? 0).nice, BELOW_NORMAL);
    await schedulerGroupCheck(t, "the editor's scheduler group is as it was", () => {
      assert.equal(ownGroupNice(), before, `the editor's group is as it was (${done})`);
      assert.match(done, /not a session of its own/);
    });
  });
});
