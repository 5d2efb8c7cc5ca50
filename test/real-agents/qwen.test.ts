// Qwen Code 0.24.4 in ACP mode (`qwen --acp`), offline: its "openai-responses" auth type points it
// at the scripted Responses API server on 127.0.0.1 from the environment, no sign-in.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { SessionController } from '../../src/conversation/sessionController';
import { sha256 } from '../support/hashes';
import { startOpenAIModelServer, type ScriptedModelServer } from '../support/model-servers/openai';
import { OPENAI_COMPATIBLE_MODEL, qwenAgentSpec } from '../support/real-agents';
import { assertAnswerStreamsInPieces, assertNothingUnanswered, meterShowingLastUsageUpdate, openScriptedAgentPanel, reviewedRealAgentSession, startScriptedRealAgent, throughPanel } from '../support/realAgentRun';
import { TEN_LINES, wireFrames } from '../support/realAgentPanel';
import { waitFor } from '../support/waitFor';

const TIMEOUT = { timeout: 180_000 };

describe('real Qwen Code (qwen --acp) through Tandem', () => {
  test('the answer streams in pieces; the context meter shows what it reports, and no cost is made up', TIMEOUT, async (t) => {
    const { model, frames, presenter, conversation } = await openScriptedAgentPanel(t, startOpenAIModelServer, qwenAgentSpec);
    await assertAnswerStreamsInPieces(throughPanel({ presenter, frames }), model, 'Qwen Code, offline: this answer is streamed to Tandem in twelve-character pieces.');
    const main = model.requests.filter((request) => request.role === 'main');
    // On a loaded machine Qwen Code sometimes asks a second time within the turn (about 1 run in 6 here).
    assert.ok(main.length >= 1, 'the turn reached the model server');
    assert.deepEqual(main.map((request) => (request.body as { model?: string }).model), main.map(() => OPENAI_COMPATIBLE_MODEL), 'every request names the configured model');

    const { sent, usage } = await meterShowingLastUsageUpdate({ frames, conversation }, 'Qwen Code');
    assert.equal(sent.cost, undefined, 'with no cost in it');
    assert.equal(usage.cost, null, 'no cost is shown, none was sent');
    assertNothingUnanswered(model, 'Qwen Code');
  });

  test('an edit asks permission with its own option ids and the diff it will write; allowed, it goes through the editor, is reviewed, and one hunk undone gives back the bytes', TIMEOUT, async (t) => {
    const { model, session, ledger, frames, writer, multi } = await qwenReviewed(t);
    const edited = TEN_LINES.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n');
    const { turn, asking, request } = await editAsked(model, session, frames, multi, edited);
    const options = (request.params?.options ?? []) as { optionId: string; kind: string }[];
    assert.deepEqual(asking.permission.options.map((option) => option.optionId), options.map((option) => option.optionId), "the card offers the agent's own options");
    const diff = asking.content.find((content) => content.type === 'diff');
    assert.ok(diff?.type === 'diff', 'Qwen Code sends the diff with the request, and the card shows it');
    assert.equal(diff.newText, edited);
    assert.equal(diff.oldText, TEN_LINES);
    const allowOnce = options.find((option) => option.kind === 'allow_once');
    assert.ok(allowOnce);
    session.answerPermission(asking.permission.requestId, allowOnce.optionId);
    await turn;
    const answer = wireFrames(frames, 'out').find((frame) => frame.id === request.id && frame.result);
    assert.deepEqual(answer?.result, { outcome: { outcome: 'selected', optionId: allowOnce.optionId } }, 'answered with the id Qwen Code gave');

    assert.equal(readFileSync(multi, 'utf8'), edited);
    const write = wireFrames(frames, 'in').find((frame) => frame.method === 'fs/write_text_file');
    assert.equal(write?.params?.path, multi, 'Qwen Code wrote through the editor');
    const file = ledger.file(multi);
    assert.equal(file?.origin, 'editor', 'reviewed as written through the editor');
    assert.equal(file.hunks.length, 2);
    const second = file.hunks.find((hunk) => hunk.added.includes('line nine'));
    assert.ok(second);
    assert.deepEqual(await writer.undo([ledger.undoHunk(multi, second.id)]), []);
    assert.equal(sha256(readFileSync(multi)), sha256(Buffer.from(TEN_LINES.replace('line 2\n', 'line two\n'))), 'only the undone region changed back, byte for byte');
  });

  test("an edit rejected with Qwen Code's own reject option leaves the file's bytes and the review untouched", TIMEOUT, async (t) => {
    const { model, session, ledger, frames, multi } = await qwenReviewed(t);
    const before = sha256(readFileSync(multi));
    const { turn, asking, request } = await editAsked(model, session, frames, multi, 'replaced\n');
    const reject = asking.permission.options.find((option) => option.kind === 'reject_once');
    assert.ok(reject);
    session.answerPermission(asking.permission.requestId, reject.optionId);
    await turn;
    const answer = wireFrames(frames, 'out').find((frame) => frame.id === request.id && frame.result);
    assert.deepEqual(answer?.result, { outcome: { outcome: 'selected', optionId: reject.optionId } });
    assert.equal(sha256(readFileSync(multi)), before, 'the file is as it was');
    assert.ok(!wireFrames(frames, 'in').some((frame) => frame.method === 'fs/write_text_file'), 'nothing was written');
    assert.equal(ledger.file(multi), undefined, 'nothing to review');
    const card = session.thread.findLastToolCall((tool) => tool.toolCallId === asking.toolCallId);
    assert.notEqual(card?.status, 'completed', 'the card does not claim the edit happened');
  });
});

/** Qwen Code in its "default" mode (it asks before each edit; it starts in "auto"), reviewed, with a ten-line file. */
async function qwenReviewed(t: { after(fn: () => unknown): void }) {
  const agent = await startScriptedRealAgent(startOpenAIModelServer, qwenAgentSpec);
  const { model, spec } = agent;
  const reviewed = reviewedRealAgentSession(t, agent, { definition: { defaultMode: 'default' } });
  const multi = join(spec.cwd, 'multi.txt');
  writeFileSync(multi, TEN_LINES);
  return { ...reviewed, model, multi };
}

/** Starts a turn in which the model reads `path` (Qwen Code overwrites only a file it has read) and then writes `content`; resolves once the agent asks. */
async function editAsked(model: ScriptedModelServer, session: SessionController, frames: FrameStore, path: string, content: string) {
  model.enqueue(
    { toolUses: [{ name: 'read_file', input: { file_path: path } }] },
    { text: 'Writing.', toolUses: [{ name: 'write_file', input: { file_path: path, content } }] },
    { text: 'Done.' },
  );
  const turn = session.prompt('Change the file');
  const tool = await waitFor(() => session.thread.findLastToolCall((candidate) => candidate.permission !== null), 'Qwen Code to ask permission', 60_000);
  const request = wireFrames(frames, 'in').find((frame) => frame.method === 'session/request_permission');
  assert.ok(tool.permission && request);
  return { turn, asking: { ...tool, permission: tool.permission }, request };
}
