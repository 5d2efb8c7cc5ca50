import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { SessionController } from '../../src/conversation/sessionController';
import type { ThreadEntry } from '../../src/thread/entries';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { tempWorkspace } from '../support/sessionBuilders';
import { folderScope } from '../../src/workspace/workspaceScope';

const workspace = tempWorkspace({ after }, 'tandem-opener-');

function newSession(t: { after(fn: () => unknown): void }, frames = new FrameStore()): SessionController {
  const session = new SessionController(scriptedAgentDefinition(), { workspace: () => folderScope(workspace), trusted: true, frames, logger: silentLogger });
  t.after(() => session.dispose());
  return session;
}

function said(entries: readonly ThreadEntry[]): string[] {
  return entries.flatMap((entry) => (entry.kind === 'user' || entry.kind === 'agentMessage' ? [entry.text] : []));
}

/** The session-opening requests Tandem sent, in order. */
function openings(frames: FrameStore): string[] {
  return frames.frames().filter((frame) => frame.direction === 'out').flatMap((frame) => /"method":"(session\/(?:new|load|resume))"/.exec(frame.text)?.[1] ?? []);
}

describe('continuing a kept transcript', () => {
  test('an agent that resumes the session keeps its id and the transcript, with no warning', async (t) => {
    const earlier = newSession(t);
    await earlier.prompt('echo remember me');
    const sessionId = earlier.currentSessionId;
    const kept = earlier.thread.snapshot();
    await earlier.close();

    const frames = new FrameStore();
    const later = newSession(t, frames);
    later.thread.restore(kept);
    later.continueLater(sessionId ?? '');
    assert.ok(await later.start());
    assert.equal(later.currentSessionId, sessionId);
    assert.deepEqual(openings(frames), ['session/resume']);
    assert.deepEqual(said(later.thread.snapshot()), ['echo remember me', 'You said: remember me']);
    assert.ok(!later.thread.snapshot().some((entry) => entry.kind === 'notice'));
  });

  test('a session the agent cannot bring back becomes a new one and the transcript stays, with a warning that says so', async (t) => {
    const frames = new FrameStore();
    const session = newSession(t, frames);
    session.thread.restore([
      { kind: 'user', id: 'e1', text: 'an earlier question' },
      { kind: 'agentMessage', id: 'e2', text: 'an earlier answer' },
    ]);
    session.continueLater('scripted-gone-1');
    assert.ok(await session.start(), 'the fallback opens a session');
    assert.deepEqual(openings(frames), ['session/resume', 'session/new']);
    const sessionId = session.currentSessionId;
    assert.ok(sessionId && sessionId !== 'scripted-gone-1');
    assert.deepEqual(said(session.thread.snapshot()), ['an earlier question', 'an earlier answer']);
    const notice = session.thread.snapshot().at(-1);
    assert.ok(notice?.kind === 'notice' && notice.severity === 'warning');
    assert.match(notice.text, /could not continue the earlier session .*so this is a new session: the agent has not seen the messages above/);
    await session.prompt('echo fresh start');
    assert.equal(session.thread.lastAgentText(), 'You said: fresh start');
    assert.equal(session.currentSessionId, sessionId);
  });
});
