import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { sleep, update } from './agentKit';
import { CHECK_COMMAND_LINE, runCheck } from './checkStage';
import { consentTo } from './consent';
import type { ModelId } from './demoConfig';
import type { DemoTurn } from './demoSession';
import { changeFile, editFile, readFiles, removeFile, resetFiles, type StageEnd, type TourState } from './editStages';
import { askForm } from './formStep';
import { guideVoice } from './guideVoice';
import { PlanProgress } from './planProgress';
import { GREETING_EDIT, MAIN_EDIT, NEW_FILE, REMOVED_FILE } from './sampleEdits';
import { terseVoice } from './terseVoice';
import type { FileOutcome, TourReport, TourScope, TurnTopic, Voice } from './voice';
import { readWorkspaceFile, workspaceKind } from './workspaceFiles';

/** What each turn of the demo does, chosen by the slash command it starts with. */

const VOICES: Readonly<Record<ModelId, Voice>> = { guide: guideVoice, terse: terseVoice };

function voiceOf(turn: DemoTurn): Voice {
  return VOICES[turn.session.config.model];
}

interface Stage {
  title: string;
  run(turn: DemoTurn, state: TourState): Promise<StageEnd>;
}

const READ: Stage = { title: 'Read the sample project', run: (turn, state) => readFiles(turn, [GREETING_EDIT.file, MAIN_EDIT.file, REMOVED_FILE], state) };
const DOCUMENT: Stage = { title: `Document the greetings in ${GREETING_EDIT.file}`, run: (turn, state) => editFile(turn, GREETING_EDIT, state) };
const TEAM: Stage = {
  title: `Greet the whole team from ${MAIN_EDIT.file}`,
  async run(turn, state) {
    const existing = await readWorkspaceFile(turn, NEW_FILE.file);
    if ((await changeFile(turn, NEW_FILE.file, existing, NEW_FILE.text, state)) === 'cancelled') return 'cancelled';
    return editFile(turn, MAIN_EDIT, state);
  },
};
const REMOVE: Stage = { title: `Remove the unused ${REMOVED_FILE}`, run: (turn, state) => removeFile(turn, REMOVED_FILE, state.texts.get(REMOVED_FILE) ?? null, state) };
const CHECK: Stage = {
  title: `Run the project check (${CHECK_COMMAND_LINE})`,
  async run(turn, state) {
    const check = await runCheck(turn);
    if (check === 'cancelled') return 'cancelled';
    state.report.check = check;
    return 'done';
  },
};

/** Steps that only take time, for /plan. */
const PLAN_STAGES: Stage[] = ['Understand the question', 'Look for the answer', 'Check it', 'Write it up'].map((title) => ({
  title,
  run: async (turn) => {
    await sleep(400, turn.signal);
    return turn.cancelled ? 'cancelled' : 'done';
  },
}));

/** How a plan entry ends when it did not simply get done. */
function stageNote(outcomes: readonly FileOutcome[]): string | null {
  if (outcomes.some((file) => file.outcome === 'rejected')) return 'you said no';
  if (outcomes.length > 0 && outcomes.every((file) => file.outcome === 'unchanged' || file.outcome === 'missing')) return 'nothing to do';
  return null;
}

/** A thought, then a plan whose entries progress with the stages, then the answer. */
async function runStages(turn: DemoTurn, topic: TurnTopic, stages: readonly Stage[], answer: (voice: Voice, report: TourReport) => string): Promise<StageEnd> {
  const voice = voiceOf(turn);
  if (!(await turn.think(voice.thought(topic)))) return 'cancelled';
  const plan = new PlanProgress(turn, stages.map((stage) => stage.title));
  await plan.show();
  const state: TourState = { texts: new Map(), report: { files: [], check: null } };
  for (const [index, stage] of stages.entries()) {
    await plan.start(index);
    const seen = state.report.files.length;
    if ((await stage.run(turn, state)) === 'cancelled') return 'cancelled';
    await plan.finish(index, stageNote(state.report.files.slice(seen)));
  }
  return (await turn.say(answer(voice, state.report))) ? 'done' : 'cancelled';
}

function tourOf(scope: TourScope, stages: readonly Stage[]): (turn: DemoTurn) => Promise<StageEnd> {
  return (turn) => runStages(turn, scope, stages, (voice, report) => voice.report(report, scope));
}

function listEntries(cwd: string): string[] {
  try {
    return readdirSync(cwd, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.'))
      .slice(0, 40)
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  } catch {
    return [];
  }
}

/** A look at the folder's top level, asked first in "Ask before edits"; null when the user said no. */
async function listFolder(turn: DemoTurn): Promise<string[] | null | 'cancelled'> {
  const { cwd } = turn.session;
  const toolCallId = turn.nextToolCallId('list');
  const title = 'List the files in the workspace folder';
  await turn.send({ sessionUpdate: 'tool_call', toolCallId, title, kind: 'search', status: 'pending', locations: [{ path: cwd }], rawInput: { path: cwd } });
  const decision = await consentTo(turn, { toolCallId, title, kind: 'search' });
  if (decision === 'cancelled') return 'cancelled';
  if (decision === 'rejected') {
    await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'Declined by the user.' } }] });
    return null;
  }
  await turn.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  await sleep(150, turn.signal);
  const files = listEntries(cwd);
  await turn.send({
    sessionUpdate: 'tool_call_update', toolCallId, status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: files.join('\n') || '(empty)' } }],
    locations: files.slice(0, 5).map((file) => ({ path: join(cwd, file) })),
  });
  return files;
}

/** A message that is no command: a look at the folder and an answer that points at the tour. */
async function chat(turn: DemoTurn, text: string): Promise<StageEnd> {
  const voice = voiceOf(turn);
  if (!(await turn.think(voice.thought('chat')))) return 'cancelled';
  const listing = await listFolder(turn);
  if (listing === 'cancelled') return 'cancelled';
  return (await turn.say(voice.chat(text, listing))) ? 'done' : 'cancelled';
}

async function form(turn: DemoTurn): Promise<StageEnd> {
  const voice = voiceOf(turn);
  if (!(await turn.think(voice.thought('form')))) return 'cancelled';
  const answer = await askForm(turn);
  if (answer === 'cancelled') return 'cancelled';
  return (await turn.say(answer === null ? voice.noForm() : voice.form(answer))) ? 'done' : 'cancelled';
}

async function reset(turn: DemoTurn): Promise<StageEnd> {
  const voice = voiceOf(turn);
  if (!(await turn.think(voice.thought('reset')))) return 'cancelled';
  const result = await resetFiles(turn);
  if (result === 'cancelled') return 'cancelled';
  return (await turn.say(voice.reset(result.restored, result.rejected))) ? 'done' : 'cancelled';
}

interface DemoCommand extends acp.AvailableCommand {
  /** It changes files or runs a command: only in the sample workspace. */
  needsSample: boolean;
  run(turn: DemoTurn): Promise<StageEnd>;
}

const COMMANDS: readonly DemoCommand[] = [
  { name: 'tour', description: 'The whole tour: a plan, edits to review hunk by hunk, a new file, a deletion, a live command', needsSample: true, run: tourOf('tour', [READ, DOCUMENT, TEAM, REMOVE, CHECK]) },
  { name: 'edit', description: 'Only the edits: hunks in two files, a new file and a deletion', needsSample: true, run: tourOf('edit', [READ, DOCUMENT, TEAM, REMOVE]) },
  { name: 'run', description: `Run the sample's check (${CHECK_COMMAND_LINE}) in a live terminal`, needsSample: true, run: tourOf('run', [CHECK]) },
  { name: 'plan', description: 'A plan that progresses step by step', needsSample: false, run: (turn) => runStages(turn, 'plan', PLAN_STAGES, (voice) => voice.plan()) },
  { name: 'form', description: 'A form with validation (elicitation)', needsSample: false, run: form },
  { name: 'reset', description: 'Put back the files this session changed', needsSample: true, run: reset },
];

export function announceCommands(client: acp.AgentContext, sessionId: string): Promise<void> {
  return update(client, sessionId, {
    sessionUpdate: 'available_commands_update',
    availableCommands: COMMANDS.map(({ name, description }) => ({ name, description })),
  });
}

function commandOf(text: string): DemoCommand | undefined {
  const name = /^\/(\S+)/.exec(text)?.[1]?.toLowerCase();
  return name ? COMMANDS.find((command) => command.name === name) : undefined;
}

async function runCommand(turn: DemoTurn, command: DemoCommand): Promise<StageEnd> {
  const kind = workspaceKind(turn.session.cwd);
  if (command.needsSample && kind !== 'sample') return (await turn.say(voiceOf(turn).refusal(kind))) ? 'done' : 'cancelled';
  return command.run(turn);
}

/** One prompt, start to end; every turn is billed to the usage meter, a stopped one too. */
export async function answerPrompt(turn: DemoTurn, text: string): Promise<acp.StopReason> {
  const session = turn.session;
  if (!session.commandsAnnounced) {
    await announceCommands(turn.client, session.id);
    session.commandsAnnounced = true;
  }
  const command = commandOf(text);
  const end = command ? await runCommand(turn, command) : await chat(turn, text || '(empty message)');
  await turn.reportUsage(text);
  return end === 'done' ? 'end_turn' : 'cancelled';
}
