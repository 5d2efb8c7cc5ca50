// Recordings of real agent sessions replayed. First, the session/update notifications of a real
// Claude Code turn fed to the thread model. Then whole recordings (test/fixtures/recordings, made
// by scripts/record-fixtures.ts from the real Claude adapter and the real Gemini CLI) replayed as
// "Replay Recording…" replays them: into a read-only tab of the chat panel. What the webview is sent must show the sessions'
// cards, diffs, command and answer, so a regression in how those updates render is caught here
// without running an agent.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import type { HostToWebview } from '../../src/contract/messages';
import type { TerminalSnapshotView } from '../../src/terminals/terminalStates';
import type { ThreadEntry, ToolCallView } from '../../src/thread/entries';
import { readRecording } from '../../src/inspector/recording';
import { RecordingReplay } from '../../src/replay/panel/recordingReplay';
import { REPLAY_NOTICE } from '../../src/replay/panel/replayTab';
import { ThreadModel } from '../../src/thread/threadModel';
import { silentLogger } from '../../src/util/logger';
import { replayThread } from '../support/panelReplay';
import { repoRoot } from '../support/scriptedAgentSpec';
import { onTestEnd, scriptedPresenter, tempWorkspace, type TestScope } from '../support/sessionBuilders';

function recorded(name: string): acp.SessionUpdate[] {
  return readFileSync(join(repoRoot, 'test', 'fixtures', name), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as acp.SessionUpdate);
}

describe('thread model fed with a recorded real Claude Code turn (Write)', () => {
  const model = new ThreadModel();
  model.addUserMessage('Create notes.md');
  for (const update of recorded('claude-write.updates.jsonl')) model.applyUpdate(update);
  model.endTurn('end_turn');

  test('entries come out in the order the user saw them', () => {
    assert.deepEqual(model.snapshot().map((entry) => entry.kind), ['user', 'thought', 'agentMessage', 'toolCall', 'agentMessage', 'turnEnded']);
    const texts = model.snapshot().filter((entry) => entry.kind === 'thought' || entry.kind === 'agentMessage').map((entry) => ('text' in entry ? entry.text : ''));
    assert.deepEqual(texts, ['The user wants a notes file.', 'I will create the notes file.', 'Created `notes.md`.']);
  });

  test('the Write card ends titled, completed, with the diff of a new file and its location', () => {
    const tool = model.snapshot().find((entry) => entry.kind === 'toolCall');
    assert.ok(tool?.kind === 'toolCall');
    assert.equal(tool.tool.title, 'Write notes.md');
    assert.equal(tool.tool.toolKind, 'edit');
    assert.equal(tool.tool.status, 'completed');
    assert.deepEqual(tool.tool.content, [{ type: 'diff', path: '/workspace/notes.md', oldText: null, newText: '# Notes\n\nFirst line.\n' }]);
    assert.deepEqual(tool.tool.locations.map((location) => location.path), ['/workspace/notes.md']);
    assert.match(tool.tool.rawOutput ?? '', /File created successfully/);
  });

  test('usage and cost, and the agent\'s slash commands, are session facts', () => {
    assert.equal(model.facts.usage?.used, 2780);
    assert.equal(model.facts.usage?.size, 1_000_000);
    assert.deepEqual(model.facts.usage?.cost, { amount: 0.023564, currency: 'USD' });
    assert.ok(model.facts.availableCommands.length > 5);
  });
});

/** The terminals the webview shows: the last snapshot's, then every delta after it. */
function shownTerminals(messages: readonly HostToWebview[]): Map<string, TerminalSnapshotView> {
  const shown = new Map<string, TerminalSnapshotView>();
  for (const message of messages) {
    if (message.type === 'snapshot') {
      shown.clear();
      for (const terminal of message.state.terminals) shown.set(terminal.terminalId, terminal);
    }
    if (message.type !== 'terminalDeltas') continue;
    for (const state of message.changed) shown.set(state.terminalId, { ...state, output: shown.get(state.terminalId)?.output ?? '' });
    for (const chunk of message.output) {
      const terminal = shown.get(chunk.terminalId);
      if (terminal) terminal.output += chunk.data;
    }
  }
  return shown;
}

/** A committed recording played into the panel's replay tab; what the webview was sent, and the replay's folder. */
async function replayed(t: TestScope, fixture: string) {
  const recording = readRecording(readFileSync(join(repoRoot, 'test', 'fixtures', 'recordings', fixture), 'utf8'));
  const panel = scriptedPresenter(t);
  await panel.ready();
  const workspace = tempWorkspace(t);
  const replay = new RecordingReplay(recording, { speed: 'instant', logger: silentLogger, workspaceRoot: workspace, waitMs: 2000 });
  onTestEnd(t, () => replay.dispose());
  panel.presenter.openReplay(replay.session);
  await replay.play();
  assert.equal(panel.presenter.currentSession, replay.session, 'the replay tab is in front');
  const entries = replayThread(panel.posted);
  const tools = entries.flatMap((entry) => (entry.kind === 'toolCall' ? [entry.tool] : []));
  return { recording, replay, workspace, entries, tools, terminals: shownTerminals(panel.posted) };
}

const cards = (tools: readonly ToolCallView[]) => tools.map((tool) => [tool.toolKind, tool.title, tool.status]);
const diffsOf = (tool: ToolCallView | undefined) => (tool?.content ?? []).flatMap((block) => (block.type === 'diff' ? [{ path: block.path, oldText: block.oldText, newText: block.newText }] : []));
const texts = (entries: readonly ThreadEntry[], kind: 'user' | 'agentMessage') => entries.flatMap((entry) => (entry.kind === kind ? [entry.text] : []));

/** Replay ran nothing and wrote nothing: no agent process, nothing in its folder, none of the recorded files made again. */
function assertTouchedNothing(replay: RecordingReplay, workspace: string, recordedPaths: readonly string[]): void {
  assert.equal(replay.session.agentPid, undefined, 'no agent process was spawned');
  assert.deepEqual(readdirSync(workspace), [], 'the replay wrote nothing where it works');
  for (const path of recordedPaths) assert.equal(existsSync(path), false, `${path} was not written by the replay`);
}

describe('recorded real sessions, replayed into the chat panel', () => {
  test('Claude Code: a Write and an Edit with their diffs, a command card with its output, and the answer', async (t) => {
    const { recording, replay, workspace, entries, tools, terminals } = await replayed(t, 'claude-edit.ndjson');
    assert.equal(recording.header.agent?.name, '@agentclientprotocol/claude-agent-acp');
    const cwd = recording.header.cwd ?? '';
    assert.equal(entries[0]?.kind === 'notice' && entries[0].text, REPLAY_NOTICE);
    assert.deepEqual(texts(entries, 'user'), ['Create a file, edit one and run a command']);
    assert.deepEqual(cards(tools), [
      ['edit', 'Write created.md', 'completed'],
      ['edit', 'Edit existing.txt', 'completed'],
      ['execute', 'node -e "console.log(6 * 7)"', 'completed'],
    ]);
    const [write, edit, command] = tools;
    assert.deepEqual(diffsOf(write), [{ path: join(cwd, 'created.md'), oldText: null, newText: 'brand new\n' }]);
    assert.deepEqual(diffsOf(edit), [{ path: join(cwd, 'existing.txt'), oldText: 'keep me\nchange me', newText: 'keep me\nchanged by claude' }]);
    const terminalId = command?.content.find((block) => block.type === 'terminal')?.terminalId;
    assert.ok(terminalId, 'the command card shows a terminal');
    const terminal = terminals.get(terminalId);
    assert.equal(terminal?.toolCallId, command?.toolCallId, 'the terminal belongs to the command card');
    assert.equal(terminal?.origin, 'agent');
    assert.equal(terminal?.running, false);
    assert.equal(terminal?.exitCode, 0);
    assert.equal(terminal?.output.trim(), '42', 'the command\'s output as the agent reported it');
    assert.deepEqual(texts(entries, 'agentMessage'), ['All done.']);
    assert.equal(entries.at(-1)?.kind, 'turnEnded');
    assertTouchedNothing(replay, workspace, [join(cwd, 'created.md'), join(cwd, 'existing.txt')]);
  });

  test('Gemini CLI: a read card, a write card with its diff, and the answer', async (t) => {
    const { recording, replay, workspace, entries, tools } = await replayed(t, 'gemini-edit.ndjson');
    const cwd = recording.header.cwd ?? '';
    assert.equal(entries[0]?.kind === 'notice' && entries[0].text, REPLAY_NOTICE);
    assert.deepEqual(texts(entries, 'user'), ['Read the app and write a todo file']);
    assert.deepEqual(cards(tools), [
      ['read', 'app.ts', 'completed'],
      ['edit', 'Writing to todo.md', 'completed'],
    ]);
    const [read, write] = tools;
    assert.deepEqual(read?.locations.map((location) => location.path), [join(cwd, 'app.ts')]);
    assert.deepEqual(diffsOf(write), [{ path: join(cwd, 'todo.md'), oldText: '', newText: '# Todo\n' }]);
    assert.deepEqual(texts(entries, 'agentMessage'), ['Read it and wrote the todo.']);
    assertTouchedNothing(replay, workspace, [join(cwd, 'todo.md'), join(cwd, 'app.ts')]);
  });
});
