// Codex through its ACP adapter (codex-acp 2.6.0, driving codex 0.166), offline: a custom model
// provider in a scratch CODEX_HOME points it at the scripted Responses API server on 127.0.0.1.
// Codex runs its own tools: `apply_patch` writes the disk itself and `exec_command` runs the shell
// itself, so review comes from the disk and commands are display terminals from `_meta` keys.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ConversationView } from '../../src/contract/conversationView';
import type { TerminalStateView } from '../../src/terminals/terminalStates';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { sha256 } from '../support/hashes';
import { memoryApiKeys } from '../support/memoryApiKeys';
import { startOpenAIModelServer, type RecordedRequest } from '../support/model-servers/openai';
import { CODEX_MODEL, codexAgentSpec } from '../support/real-agents';
import {
  assertAnswerStreamsInPieces, assertNothingUnanswered, assertStopCancelsStreamingTurn, meterShowingLastUsageUpdate, openScriptedAgentPanel, realAgentSession, reviewedRealAgentSession, startScriptedRealAgent, throughPanel,
} from '../support/realAgentRun';
import { allowingPermissions } from '../support/reviewHarness';
import { TEN_LINES } from '../support/realAgentPanel';
import { waitFor } from '../support/waitFor';

const TIMEOUT = { timeout: 180_000 };

interface ResponsesBody {
  model?: string;
  reasoning?: { effort?: string };
}

/** The body of the last request that ran Codex's coding loop. */
function lastMainBody(requests: readonly RecordedRequest[]): ResponsesBody {
  return requests.filter((request) => request.role === 'main').at(-1)?.body as ResponsesBody;
}

/** A panel presenter over a real Codex agent; `posted` is everything the webview was sent. */
async function codexPanel(t: { after(fn: () => unknown): void }) {
  return openScriptedAgentPanel(t, startOpenAIModelServer, codexAgentSpec);
}

/** Picks a value other than the current one in a select picker, as the user would, and waits for the agent's answer. */
async function pickAnother(presenter: ChatPresenter, conversation: () => ConversationView | undefined, optionId: string): Promise<string> {
  const control = conversation()?.controls.find((candidate) => candidate.id === optionId);
  assert.ok(control?.kind === 'select', `Codex offers a ${optionId} picker`);
  const value = control.choices.find((choice) => choice.value !== control.currentValue)?.value;
  assert.ok(value, `the ${optionId} picker has another choice`);
  await presenter.handle({ type: 'setSessionOption', optionId, value });
  await waitFor(() => {
    const now = conversation()?.controls.find((candidate) => candidate.id === optionId);
    return now?.kind === 'select' && now.currentValue === value && !now.pending;
  }, `the ${optionId} switch to be answered`, 30_000);
  return value;
}

describe('real Codex (codex-acp) through Tandem', () => {
  test('the answer streams in pieces; model and reasoning effort switched mid-session reach the model server; usage fills the meter', TIMEOUT, async (t) => {
    const { model, frames, presenter, conversation } = await codexPanel(t);
    await assertAnswerStreamsInPieces(throughPanel({ presenter, frames }), model, 'Codex, offline: this answer is streamed to Tandem in twelve-character pieces.');
    assert.equal(lastMainBody(model.requests).model, CODEX_MODEL);

    const pickers = conversation()?.controls ?? [];
    const modelPicker = pickers.find((control) => control.id === 'model');
    assert.equal(modelPicker?.category, 'model');
    assert.equal(modelPicker?.kind === 'select' && modelPicker.currentValue, CODEX_MODEL);
    assert.equal(pickers.find((control) => control.id === 'reasoning_effort')?.category, 'thought_level');

    const otherModel = await pickAnother(presenter, conversation, 'model');
    // After the model: each model has its own set of efforts.
    const otherEffort = await pickAnother(presenter, conversation, 'reasoning_effort');

    model.enqueue({ text: 'Answered by the model and effort the user picked.' });
    await presenter.sendPrompt('Which model?');
    const next = lastMainBody(model.requests);
    assert.equal(next.model, otherModel, 'the next turn ran on the picked model');
    assert.equal(next.reasoning?.effort, otherEffort, 'with the picked reasoning effort');

    const { usage } = await meterShowingLastUsageUpdate({ frames, conversation }, 'Codex');
    assert.ok(usage.used > 0 && usage.used < usage.size);
    assert.equal(usage.cost, null, 'Codex sends no cost, and none is made up');
    assertNothingUnanswered(model, 'Codex');
  });

  test('Stop during a streamed answer ends the turn as cancelled, and Codex stops reading the model', TIMEOUT, async (t) => {
    const { model, frames, presenter } = await codexPanel(t);
    await assertStopCancelsStreamingTurn(throughPanel({ presenter, frames }), model);
    await waitFor(() => model.requests.find((request) => request.role === 'main')?.disconnected, 'Codex to hang up on the model stream', 10_000);
  });

  test('an apply_patch edit is reviewed as written to disk by the agent; one hunk undone, then a created file, gives back the bytes', TIMEOUT, async (t) => {
    const agent = await startScriptedRealAgent(startOpenAIModelServer, codexAgentSpec);
    const { model, spec } = agent;
    const workspace = spec.cwd;
    const { session, ledger, frames, writer } = reviewedRealAgentSession(t, agent);
    const multi = join(workspace, 'multi.txt');
    writeFileSync(multi, TEN_LINES);
    const created = join(workspace, 'notes', 'todo.md');
    const patch = [
      '*** Begin Patch',
      '*** Update File: multi.txt',
      '@@',
      ' line 1',
      '-line 2',
      '+line two',
      ' line 3',
      '@@',
      ' line 8',
      '-line 9',
      '+line nine',
      ' line 10',
      '*** Add File: notes/todo.md',
      '+# Todo',
      '+- review hunks',
      '*** End Patch',
      '',
    ].join('\n');
    model.enqueue({ text: 'Patching.', toolUses: [{ name: 'apply_patch', input: { input: patch } }] }, { text: 'Patched.' });
    await allowingPermissions(session, session.prompt('Spell out two numbers and start a todo list'));

    const edited = TEN_LINES.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n');
    assert.equal(readFileSync(multi, 'utf8'), edited, 'Codex patched the file itself');
    assert.equal(readFileSync(created, 'utf8'), '# Todo\n- review hunks\n');
    assert.ok(!frames.frames().some((frame) => frame.text.includes('"fs/write_text_file"')), 'Codex never asked Tandem to write');
    const output = model.requests.filter((request) => request.role === 'main').at(-1);
    assert.match(JSON.stringify(output?.body), /Success\. Updated the following files/, 'the model was told the patch applied');

    const file = ledger.file(multi);
    assert.equal(file?.origin, 'disk', 'reviewed as written to disk by the agent');
    assert.equal(file?.hunks.length, 2);
    assert.equal(ledger.file(created)?.origin, 'disk');
    assert.equal(ledger.file(created)?.status, 'created');
    const second = file?.hunks.find((hunk) => hunk.added.includes('line nine'));
    assert.ok(file && second);
    assert.deepEqual(await writer.undo([ledger.undoHunk(multi, second.id)]), []);
    const partlyUndone = Buffer.from(TEN_LINES.replace('line 2\n', 'line two\n'));
    assert.equal(sha256(readFileSync(multi)), sha256(partlyUndone), 'only the undone region changed back, byte for byte');
    assert.deepEqual(await writer.undo([ledger.undoFile(created)]), []);
    assert.equal(existsSync(created), false, 'undoing the created file removes it');
  });

  test('a command is a display terminal from its _meta keys: shown running, then its output and exit code', TIMEOUT, async (t) => {
    const { model, spec, frames, posted, presenter } = await codexPanel(t);
    const session = presenter.currentSession;
    // Long enough to be seen running: a faster command may start and end within one batch to the panel.
    const command = "sleep 0.3; printf 'codex says hi\\n'; sleep 0.5; echo second line; exit 3";
    model.enqueue({ toolUses: [{ name: 'exec_command', input: { cmd: command, workdir: spec.cwd } }] }, { text: 'The command failed with exit code 3.' });
    await allowingPermissions(session, presenter.sendPrompt('Run the command'));

    const init = frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"initialize"'));
    assert.match(init?.text ?? '', /"terminal_output":true/, 'display terminals are advertised');
    assert.ok(frames.frames().some((frame) => frame.direction === 'in' && frame.text.includes('"terminal_info"')), 'Codex announced a display terminal');
    assert.ok(!frames.frames().some((frame) => frame.text.includes('"terminal/create"')), 'Codex ran the command itself');
    const card = session.thread.snapshot().find((entry) => entry.kind === 'toolCall' && entry.tool.toolKind === 'execute');
    assert.ok(card?.kind === 'toolCall', 'a command card');
    const terminal = card.tool.content.find((content) => content.type === 'terminal');
    assert.ok(terminal?.type === 'terminal', 'the card shows a terminal');
    const view = session.terminalDisplays.view(terminal.terminalId);
    assert.equal(view?.origin, 'agent');
    assert.equal(view?.toolCallId, card.tool.toolCallId);
    assert.equal(view?.command, command);
    assert.equal(view?.exitCode, 3);
    assert.equal(view?.running, false);
    // Every output chunk Codex sent, in order, is what the terminal holds.
    const sentOutput = frames.frames()
      .filter((frame) => frame.direction === 'in' && frame.text.includes('"terminal_output"'))
      .map((frame) => (JSON.parse(frame.text) as { params: { update: { _meta?: { terminal_output?: { data: string; terminal_id: string } } } } }).params.update._meta?.terminal_output)
      .filter((chunk) => chunk?.terminal_id === terminal.terminalId)
      .map((chunk) => chunk?.data ?? '')
      .join('');
    assert.match(sentOutput, /second line/);
    assert.equal(session.terminalDisplays.output(terminal.terminalId), sentOutput);

    const states = posted.flatMap((message) => (message.type === 'terminalDeltas' ? message.changed : [])).filter((state: TerminalStateView) => state.terminalId === terminal.terminalId);
    assert.ok(states.some((state) => state.running), 'it was shown running first');
    assert.equal(states.at(-1)?.exitCode, 3);
    const shown = posted.flatMap((message) => (message.type === 'terminalDeltas' ? message.output : [])).filter((chunk) => chunk.terminalId === terminal.terminalId).map((chunk) => chunk.data).join('');
    assert.match(shown, /second line/);
    assert.equal(session.thread.lastAgentText(), 'The command failed with exit code 3.');
  });

  test('signed out, Codex asks to be signed in; the API key the user gives is kept by the editor and reaches the model, never the traffic log', TIMEOUT, async (t) => {
    const agent = await startScriptedRealAgent(startOpenAIModelServer, (url) => codexAgentSpec(url, { signedOut: true }));
    const { model } = agent;
    const secret = 'sk-scripted-codex-0123456789abcdef';
    const keys = memoryApiKeys(secret);
    const { session, frames } = realAgentSession(t, agent, { environment: { apiKeys: keys } });
    assert.equal(await session.start(), false, 'no session without a login');
    assert.equal(session.connectionView.phase, 'signInRequired');
    const offered = session.connectionView.signIn?.map((method) => `${method.methodId}:${method.kind}`) ?? [];
    assert.ok(offered.includes('api-key:apiKey'), `the API key is offered as a key to type (${offered.join(', ')})`);
    assert.ok(await session.signIn('api-key'));
    assert.deepEqual(keys.asked, ['Codex: API Key (OPENAI_API_KEY)'], 'asked once, for the variable Codex reads');

    model.enqueue({ text: 'Signed in with the key.' });
    await session.prompt('Hello');
    assert.equal(session.thread.lastAgentText(), 'Signed in with the key.');
    const main = model.requests.find((request) => request.role === 'main');
    assert.equal(main?.headers.authorization, `Bearer ${secret}`, 'the model got the key');
    assert.equal(model.requests.length, 1, 'one request for one turn');
    assert.ok(!frames.frames().some((frame) => frame.text.includes(secret)), 'the key is never in the traffic');
  });
});
