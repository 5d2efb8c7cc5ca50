// The shipped demo agent (its stdio program, run with tsx) against Tandem's real session layer:
// the fs service and change ledger, the terminal service, permissions and forms in the thread.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { builtInPresets, DEMO_AGENT_ID, resolveAgents, type AgentDefinition } from '../../src/agents/agentConfig';
import type { ThreadEntry, ToolCallView } from '../../src/thread/entries';
import { SessionController } from '../../src/conversation/sessionController';
import { reviewedFiles } from '../support/reviewHarness';
import { repoRoot, tsxLoader } from '../support/scriptedAgentSpec';
import { onTestEnd, scriptedEnvironment, tempWorkspace, type TestScope } from '../support/sessionBuilders';
import { terminalServices } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

const SAMPLE = join(repoRoot, 'scripts', 'sample-workspace');
const original = (file: string) => readFileSync(join(SAMPLE, file), 'utf8');

const GREETING_AFTER = original('src/greeting.ts')
  .replace('export function greeting(', '/** What the app says first: "Hello, Ada!". */\nexport function greeting(')
  .replace('\nexport function farewell(', '\n/** What the app says last. */\nexport function farewell(')
  .replace('`Goodbye, ${name}.`', '`Goodbye, ${name}. See you soon!`');
const MAIN_AFTER = "import { farewell, greeting } from './greeting';\nimport { team } from './team';\n\nfor (const name of team) console.log(greeting(name));\nconsole.log(farewell('everyone'));\n";
const TEAM = "/** Everyone the app greets, in the order they joined. */\nexport const team = ['Ada', 'Grace', 'Linus'];\n";
const GREEN_PASS = '\u001b[32mPASS\u001b[0m every export in src/ has a doc comment';

/** The demo preset as Tandem resolves it, its program run from source with tsx. */
function demoDefinition(defaults: Record<string, string>): AgentDefinition {
  const presets = builtInPresets(join(repoRoot, 'src', 'demo-agent', 'demoAgent.ts'), process.execPath);
  const demo = resolveAgents({ [DEMO_AGENT_ID]: { default_config_options: defaults } }, presets).agents.find((agent) => agent.id === DEMO_AGENT_ID);
  assert.ok(demo);
  return { ...demo, args: ['--import', tsxLoader, ...demo.args] };
}

/** A session with the demo agent in `workspace` (by default a fresh copy of the sample workspace). */
function demoSession(t: TestScope, options: { defaults?: Record<string, string>; workspace?: string } = {}) {
  let workspace = options.workspace;
  if (!workspace) {
    workspace = tempWorkspace(t, 'tandem-demo-');
    cpSync(SAMPLE, workspace, { recursive: true });
  }
  const review = reviewedFiles(workspace);
  // The point is the shipped program itself, talking over its stdio.
  const environment = scriptedEnvironment(t, { workspace, agent: 'process', scope: { files: review.files, commands: terminalServices.commands } });
  const session = new SessionController(demoDefinition(options.defaults ?? {}), environment);
  onTestEnd(t, () => session.dispose());
  const read = (file: string) => readFileSync(join(workspace, file), 'utf8');
  return { session, workspace, ledger: review.ledger, read };
}

/**
 * Runs one prompt, answering every permission the agent asks with the option `choose` names
 * (allow once by default); resolves with the tool calls that asked, as they were asking.
 */
async function promptAnswering(session: SessionController, text: string, choose: (tool: ToolCallView) => 'allow_once' | 'reject_once' = () => 'allow_once'): Promise<ToolCallView[]> {
  const asked: ToolCallView[] = [];
  const answered = new Set<string>();
  let done = false;
  const turn = session.prompt(text).finally(() => {
    done = true;
  });
  while (!done) {
    const asking = session.thread.findLastToolCall((tool) => tool.permission !== null && !answered.has(tool.permission.requestId));
    const permission = asking?.permission;
    if (asking && permission) {
      answered.add(permission.requestId);
      asked.push(structuredClone(asking));
      const option = permission.options.find((candidate) => candidate.kind === choose(asking));
      assert.ok(option, `${asking.title} offers ${choose(asking)}`);
      session.answerPermission(permission.requestId, option.optionId);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await turn;
  return asked;
}

function entriesOf<K extends ThreadEntry['kind']>(session: SessionController, kind: K): Extract<ThreadEntry, { kind: K }>[] {
  return session.thread.snapshot().filter((entry): entry is Extract<ThreadEntry, { kind: K }> => entry.kind === kind);
}

function checkOutput(session: SessionController): string {
  const run = session.thread.findLastToolCall((tool) => tool.toolKind === 'execute');
  const terminal = run?.content.find((content) => content.type === 'terminal');
  assert.ok(terminal?.type === 'terminal', 'the command card shows a terminal');
  return session.terminalDisplays.output(terminal.terminalId);
}

const costOf = (session: SessionController) => session.thread.facts.usage?.cost?.amount ?? 0;

describe('the demo agent tours Tandem in the sample workspace', () => {
  test('/tour in "Ask before edits": a thought, a plan that completes, asked edits in two files, a new file, a deletion, a live check', { timeout: 60_000 }, async (t) => {
    const { session, workspace, ledger, read } = demoSession(t);
    assert.ok(await session.start());
    assert.deepEqual(session.thread.facts.configOptions.map((option) => [option.id, option.type === 'select' ? option.currentValue : null]), [['mode', 'ask'], ['model', 'guide']]);

    const asked = await promptAnswering(session, '/tour');
    assert.deepEqual(asked.map((tool) => `${tool.toolKind} ${tool.title}`), ['edit Edit src/greeting.ts', 'edit Create src/team.ts', 'edit Edit src/main.ts', 'delete Delete src/legacy.ts']);
    assert.deepEqual(asked[0]?.permission?.options.map((option) => option.kind), ['allow_once', 'allow_always', 'reject_once']);
    assert.ok(entriesOf(session, 'thought').some((entry) => entry.text.length > 20), 'a thought streamed');
    assert.deepEqual(session.thread.facts.availableCommands.map((command) => command.name), ['tour', 'edit', 'run', 'plan', 'form', 'reset']);
    const plan = entriesOf(session, 'plan').at(-1);
    assert.equal(plan?.items.length, 5);
    assert.ok(plan?.items.every((item) => item.status === 'completed'), 'the plan ends completed');
    assert.equal(entriesOf(session, 'turnEnded').at(-1)?.stopReason, 'end_turn');

    assert.equal(read('src/greeting.ts'), GREETING_AFTER);
    assert.equal(read('src/main.ts'), MAIN_AFTER);
    assert.equal(read('src/team.ts'), TEAM);
    assert.equal(existsSync(join(workspace, 'src/legacy.ts')), false);
    const review = new Map(ledger.files().map((file) => [file.path.slice(workspace.length + 1), file]));
    assert.equal(review.get('src/greeting.ts')?.hunks.length, 3);
    assert.equal(review.get('src/main.ts')?.hunks.length, 2);
    assert.equal(review.get('src/team.ts')?.status, 'created');
    assert.equal(review.get('src/legacy.ts')?.status, 'deleted');
    assert.equal(review.get('src/legacy.ts')?.origin, 'disk', 'the agent deleted it itself; Tandem found it by comparing');

    const output = checkOutput(session);
    assert.ok(output.includes(GREEN_PASS), output);
    assert.match(output, /All 3 rules pass\./);
    assert.equal(session.thread.findLastToolCall((tool) => tool.toolKind === 'execute')?.status, 'completed');
    assert.match(session.thread.lastAgentText(), /ACP has no request for deleting a file/);

    const firstCost = costOf(session);
    assert.ok(firstCost > 0);
    await promptAnswering(session, '/run');
    assert.ok(costOf(session) > firstCost, `the cost grows: ${firstCost} then ${costOf(session)}`);
    assert.equal(readdirSync(join(workspace, 'src')).sort().join(' '), 'greeting.ts main.ts team.ts');
  });

  test('a rejected edit is left out, and the check then fails on disk as it is', { timeout: 60_000 }, async (t) => {
    const { session, read } = demoSession(t);
    await promptAnswering(session, '/tour', (tool) => (tool.title === 'Edit src/greeting.ts' ? 'reject_once' : 'allow_once'));
    assert.equal(read('src/greeting.ts'), original('src/greeting.ts'));
    assert.equal(read('src/main.ts'), MAIN_AFTER);
    assert.match(entriesOf(session, 'plan').at(-1)?.items[1]?.content ?? '', /\(you said no\)$/);
    const output = checkOutput(session);
    assert.ok(output.includes('\u001b[31mFAIL\u001b[0m every export in src/ has a doc comment'), output);
    assert.equal(session.thread.findLastToolCall((tool) => tool.toolKind === 'execute')?.status, 'failed');
    assert.match(session.thread.lastAgentText(), /You said no/);
  });

  test('Stop while a change waits for permission ends the tour as cancelled, with the file untouched', { timeout: 60_000 }, async (t) => {
    const { session, read } = demoSession(t);
    const turn = session.prompt('/tour');
    await waitFor(() => session.thread.findLastToolCall((tool) => tool.permission !== null), 'the first question', 20_000);
    await session.cancel();
    await turn;
    assert.equal(entriesOf(session, 'turnEnded').at(-1)?.stopReason, 'cancelled');
    assert.equal(read('src/greeting.ts'), original('src/greeting.ts'));
    assert.equal(session.thread.findLastToolCall((tool) => tool.toolKind === 'execute'), undefined, 'the check never ran');
  });

  test('"Edit freely" asks nothing and makes the same changes; /reset puts the sample back', { timeout: 60_000 }, async (t) => {
    const { session, workspace, read } = demoSession(t, { defaults: { mode: 'auto' } });
    assert.deepEqual(await promptAnswering(session, '/edit'), []);
    assert.equal(read('src/greeting.ts'), GREETING_AFTER);
    assert.equal(read('src/team.ts'), TEAM);
    assert.equal(existsSync(join(workspace, 'src/legacy.ts')), false);

    await promptAnswering(session, '/reset');
    for (const file of ['src/greeting.ts', 'src/main.ts', 'src/legacy.ts']) assert.equal(read(file), original(file), file);
    assert.equal(existsSync(join(workspace, 'src/team.ts')), false);
  });

  test('switching the model mid-session changes the answers; the agent answers with the complete option list', { timeout: 60_000 }, async (t) => {
    const { session } = demoSession(t);
    await promptAnswering(session, 'What is in this workspace?');
    const guide = session.thread.lastAgentText();
    assert.match(guide, /Tandem's demo agent/);
    assert.match(guide, /README\.md/);

    const live = session.live;
    assert.ok(live);
    const { configOptions } = await live.connection.setConfigOption(live.sessionId, 'model', 'terse');
    assert.deepEqual(configOptions.map((option) => [option.id, option.type === 'select' ? option.currentValue : null]), [['mode', 'ask'], ['model', 'terse']]);
    await promptAnswering(session, 'What is in this workspace?');
    const terse = session.thread.lastAgentText();
    assert.notEqual(terse, guide);
    assert.match(terse, /Demo Terse/);
    assert.match(terse, /README\.md/);
    await assert.rejects(live.connection.setConfigOption(live.sessionId, 'model', 'gpt-9'));
  });

  test('/form asks with an elicitation form that Tandem validates, and answers with what was submitted', { timeout: 60_000 }, async (t) => {
    const { session } = demoSession(t);
    const turn = session.prompt('/form');
    const form = await waitFor(() => {
      const entry = entriesOf(session, 'elicitation').at(-1);
      return entry?.elicitation.state === 'open' ? entry.elicitation : undefined;
    }, 'the form', 20_000);
    assert.equal(form.title, 'Greeting settings');
    assert.equal(session.answerElicitation(form.requestId, 'accept', { name: 'A', style: 'pirate', excitement: 2 }), false, 'a name of one character is refused');
    assert.equal(session.answerElicitation(form.requestId, 'accept', { name: 'Ada', style: 'pirate', excitement: 9 }), false, 'more than 3 marks is refused');
    assert.ok(session.answerElicitation(form.requestId, 'accept', { name: 'Ada', style: 'pirate', excitement: 2 }));
    await turn;
    assert.match(session.thread.lastAgentText(), /\*\*name\*\*: Ada[\s\S]*Ahoy, Ada!!/);
  });

  test('outside the sample workspace it changes nothing and says why', { timeout: 60_000 }, async (t) => {
    const clone = tempWorkspace(t, 'tandem-clone-');
    mkdirSync(join(clone, 'src', 'demo-agent'), { recursive: true });
    cpSync(SAMPLE, join(clone, 'scripts', 'sample-workspace'), { recursive: true });
    // Even a folder that carries the sample's files is refused when it is Tandem's repository.
    cpSync(SAMPLE, clone, { recursive: true });
    const inClone = demoSession(t, { workspace: clone, defaults: { mode: 'auto' } });
    await promptAnswering(inClone.session, '/tour');
    assert.match(inClone.session.thread.lastAgentText(), /Tandem's own repository/);
    assert.equal(inClone.read('src/greeting.ts'), original('src/greeting.ts'));
    assert.equal(inClone.session.thread.findLastToolCall(() => true), undefined, 'no tool ran');

    const elsewhere = demoSession(t, { workspace: tempWorkspace(t, 'tandem-other-'), defaults: { mode: 'auto' } });
    await promptAnswering(elsewhere.session, '/run');
    assert.match(elsewhere.session.thread.lastAgentText(), /only works in Tandem's sample workspace/);
    assert.deepEqual(readdirSync(elsewhere.workspace), []);
  });
});
