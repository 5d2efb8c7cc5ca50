import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FsPort, TerminalPort } from '../../src/acp/clientPorts';
import type { ThreadEntry } from '../../src/thread/entries';
import type { SessionController } from '../../src/conversation/sessionController';
import { conversationFrames } from '../../src/inspector/conversationFrames';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { readRecording, recordingHeader, writeRecording } from '../../src/inspector/recording';
import { RecordingReplay } from '../../src/replay/panel/recordingReplay';
import { silentLogger } from '../../src/util/logger';
import { FrameScript } from '../support/frameBuilders';
import { onTestEnd, scriptedEnvironment, scriptedSession, tempWorkspace, type TestScope } from '../support/sessionBuilders';
import { terminalPrompt } from '../support/scenarios/terminals';
import { waitFor } from '../support/waitFor';

/** Client answers that touch nothing, so the recording holds fs/* and terminal/* traffic. */
function fakePorts(written: string[]): { fs: FsPort; terminals: TerminalPort } {
  return {
    fs: {
      readTextFile: async () => ({ content: 'export const greeting = "hello";\n' }),
      writeTextFile: async (params) => {
        written.push(params.path);
        return {};
      },
    },
    terminals: {
      create: async () => ({ terminalId: 'term-1' }),
      output: async () => ({ output: 'touched\n', truncated: false, exitStatus: { exitCode: 0 } }),
      waitForExit: async () => ({ exitCode: 0 }),
      kill: async () => ({}),
      release: async () => ({}),
    },
  };
}

async function turn(session: SessionController, text: string, permission?: { toolCallId: string; optionId: string }): Promise<void> {
  const done = session.prompt(text);
  if (permission) {
    const asked = await waitFor(() => session.thread.toolCall(permission.toolCallId)?.permission ?? undefined, 'the permission card');
    session.answerPermission(asked.requestId, permission.optionId);
  }
  await done;
}

/** A live session on the scripted agent, recorded: a tool-call turn with a permission, terminals, fs reads, a malformed line. */
async function recordedSession(t: TestScope, marker: string): Promise<{ text: string; entries: ThreadEntry[] }> {
  const written: string[] = [];
  const environment = scriptedEnvironment(t, { wirePorts: fakePorts(written) });
  const session = scriptedSession(t, { environment });
  assert.ok(await session.start());
  await turn(session, 'conversation', { toolCallId: 'conv-edit', optionId: 'allow-once' });
  await turn(session, terminalPrompt({ create: { command: 'touch', args: [marker] }, toolCall: true, steps: ['output', 'wait', 'release'] }));
  await turn(session, `fs-read-bench ${join(environment.workspaceRoot, 'a.ts')} 2`);
  await turn(session, 'malformed');
  await turn(session, 'echo goodbye');
  const all = environment.frames.frames();
  const frames = conversationFrames(all, buildFrameIndex(all), new Set([session.currentSessionId ?? '']));
  return { text: await writeRecording(recordingHeader(frames, environment.workspaceRoot, new Date()), frames), entries: session.thread.snapshot() };
}

function replayOf(t: TestScope, text: string, workspaceRoot: string, speed: 'instant' | 'recorded' = 'instant'): RecordingReplay {
  const replay = new RecordingReplay(readRecording(text), { speed, logger: silentLogger, workspaceRoot, waitMs: 2000 });
  onTestEnd(t, () => replay.dispose());
  return replay;
}

describe('recording replay', () => {
  test('a recorded session replays into the same thread entries, through the same connection and thread', async (t) => {
    const replayFolder = tempWorkspace(t);
    const marker = join(replayFolder, 'ran.txt');
    const live = await recordedSession(t, marker);
    const replay = replayOf(t, live.text, replayFolder);
    const notes = await replay.play();
    assert.deepEqual(notes, []);
    assert.deepEqual(replay.session.thread.snapshot(), live.entries);
    assert.ok(live.entries.some((entry) => entry.kind === 'agentMessage' && entry.text.includes('term-1')), 'the terminal answers came from the recording');
    assert.equal(replay.session.agentPid, undefined, 'no process');
    assert.equal(existsSync(marker), false, 'the recorded command did not run');
    assert.deepEqual(readdirSync(replayFolder), [], 'the replay wrote nothing');
  });

  test('the same recording replays to the same thread every time, and at recorded speed too', async (t) => {
    const folder = tempWorkspace(t);
    const live = await recordedSession(t, join(folder, 'never'));
    const first = replayOf(t, live.text, folder);
    await first.play();
    const second = replayOf(t, live.text, folder, 'recorded');
    await second.play();
    assert.deepEqual(second.session.thread.snapshot(), first.session.thread.snapshot());
  });

  test('a recording cut mid-turn replays what it holds and says what the replay could not do', async (t) => {
    const script = new FrameScript()
      .open('s1', { agentName: 'cut' })
      .request('out', 2, 'session/prompt', { sessionId: 's1', prompt: [{ type: 'text', text: 'hello' }] })
      .update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Half an ans' } })
      .request('out', 3, 'session/set_mode', { sessionId: 's1', modeId: 'plan' })
      .request('in', 0, 'fs/write_text_file', { sessionId: 's1', path: '/etc/passwd', content: 'x' });
    const text = await writeRecording({ protocolVersion: 1, agent: { name: 'cut', title: null, version: null }, cwd: null, recordedAt: '' }, script.frames);
    const folder = tempWorkspace(t);
    const replay = replayOf(t, text, folder);
    const notes = await replay.play();
    const entries = replay.session.thread.snapshot();
    assert.deepEqual(entries.map((entry) => entry.kind), ['user', 'agentMessage']);
    assert.equal(entries[1]?.kind === 'agentMessage' && entries[1].text, 'Half an ans');
    assert.deepEqual(notes, [], 'the mode change went out through the connection and its missing answer is no step');
    const framesSent = replay.frames.frames().filter((frame) => frame.direction === 'out').map((frame) => JSON.parse(frame.text) as { method?: string; error?: { message: string } });
    assert.ok(framesSent.some((message) => message.error?.message.includes('no answer to this fs/write_text_file')), 'the write was refused, not performed');
  });
});
